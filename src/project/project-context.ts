import { type LayoutOverrides, type ProjectLayout, projectLayout } from './project-layout.js';
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
  moved: Partial<LayoutOverrides> = {},
  gettingStarted = false,
): ProjectContext {
  const layout = projectLayout(root, moved);
  return { layout, identity: loadServerIdentity(layout, { gettingStarted }), gettingStarted };
}
