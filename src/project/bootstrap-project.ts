import { cpSync } from 'node:fs';
import { join } from 'node:path';
import type { FrameworkHome } from '../assets/framework-home.js';

/**
 * Getting-started mode: with no project configured, the server serves a copy of the
 * bootstrap project (one `getting_started` tool) from its state dir, so the client shows
 * how to set one up instead of an empty, silent server.
 */
export function prepareBootstrapProject(home: FrameworkHome, stateDir: string): string {
  const target = join(stateDir, 'bootstrap-project');
  cpSync(home.bootstrapDir, target, { recursive: true });
  return target;
}
