import { isAbsolute, join, resolve } from 'node:path';

/** The directories of a project, each overridable by its MCPBASH_*_DIR variable. */
export interface ProjectLayout {
  readonly root: string;
  readonly toolsDir: string;
  readonly resourcesDir: string;
  readonly promptsDir: string;
  readonly serverDir: string;
  readonly providersDir: string;
  readonly completionsDir: string;
  readonly uiDir: string;
  readonly registryDir: string;
}

/** MCPBASH_*_DIR: where the operator moved a directory of the layout (PathsConfig.layout). */
export type LayoutOverrides = { readonly [K in keyof Omit<ProjectLayout, 'root'>]: string | undefined };

const overrides: ReadonlyArray<[keyof Omit<ProjectLayout, 'root'>, string, string]> = [
  ['toolsDir', 'MCPBASH_TOOLS_DIR', 'tools'],
  ['resourcesDir', 'MCPBASH_RESOURCES_DIR', 'resources'],
  ['promptsDir', 'MCPBASH_PROMPTS_DIR', 'prompts'],
  ['serverDir', 'MCPBASH_SERVER_DIR', 'server.d'],
  ['providersDir', 'MCPBASH_PROVIDERS_DIR', 'providers'],
  ['completionsDir', 'MCPBASH_COMPLETIONS_DIR', 'completions'],
  ['uiDir', 'MCPBASH_UI_DIR', 'ui'],
  ['registryDir', 'MCPBASH_REGISTRY_DIR', '.registry'],
];

/** Relative overrides are taken relative to the project root. */
export function projectLayout(root: string, moved: Partial<LayoutOverrides> = {}): ProjectLayout {
  const layout: Record<string, string> = { root };
  for (const [key, , fallback] of overrides) {
    const value = moved[key];
    layout[key] = value ? (isAbsolute(value) ? value : resolve(root, value)) : join(root, fallback);
  }
  return layout as unknown as ProjectLayout;
}

/** The layout's directories as the MCPBASH_* variables tools and providers receive. */
export function layoutEnvironment(layout: ProjectLayout): Record<string, string> {
  const env: Record<string, string> = { MCPBASH_PROJECT_ROOT: layout.root };
  for (const [key, variable] of overrides) env[variable] = layout[key];
  return env;
}
