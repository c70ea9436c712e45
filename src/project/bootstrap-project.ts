import { cpSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import type { FrameworkHome } from '../assets/framework-home.js';
import { isSystemError, systemErrorLine } from '../fs/system-errors.js';

/**
 * Getting-started mode: with no project configured, the server serves a copy of the
 * bootstrap project (one `getting_started` tool) from its state dir, so the client shows
 * how to set one up instead of an empty, silent server. When the copy cannot be made (a
 * full TMPDIR), the framework's own copy is served, and `warn` says why.
 */
export function prepareBootstrapProject(
  home: FrameworkHome,
  stateDir: string,
  warn: (message: string) => void = () => {},
): string {
  const target = join(stateDir, 'bootstrap-project');
  try {
    cpSync(home.bootstrapDir, target, { recursive: true });
    return target;
  } catch (error) {
    if (!isSystemError(error)) throw error;
    rmSync(target, { recursive: true, force: true });
    warn(`${systemErrorLine(error)}; serving the getting-started project from ${home.bootstrapDir}`);
    return home.bootstrapDir;
  }
}
