import type { ProjectLayout } from './project-layout.js';
import { projectLayout } from './project-layout.js';
import { loadServerIdentity, type ServerIdentity } from './server-identity.js';

/** The project a server or command works on. */
export interface ProjectContext {
  readonly layout: ProjectLayout;
  readonly identity: ServerIdentity;
  /** No project was configured: the bootstrap project explains how to set one up. */
  readonly gettingStarted: boolean;
}

export function openProject(
  root: string,
  env: Readonly<Record<string, string | undefined>>,
  gettingStarted = false,
): ProjectContext {
  const layout = projectLayout(root, env);
  return { layout, identity: loadServerIdentity(layout, { gettingStarted }), gettingStarted };
}
