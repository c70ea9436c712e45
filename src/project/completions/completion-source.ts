import { statSync } from 'node:fs';
import { join } from 'node:path';
import type { ProjectLayout } from '../project-layout.js';
import type { PromptDefinition } from '../prompts/prompt-definition.js';
import type { ResourceDefinition } from '../resources/resource-definition.js';
import type { CompletionRegistration } from './completion-registration.js';

/** Where the suggestions for a name come from; `key` binds cursors to it. */
export type CompletionSource =
  | { readonly kind: 'manual'; readonly key: string; readonly script: string; readonly timeoutSecs?: number }
  | { readonly kind: 'prompt'; readonly key: string; readonly script: string; readonly prompt: PromptDefinition }
  | { readonly kind: 'resource'; readonly key: string; readonly script: string; readonly resource: ResourceDefinition }
  | { readonly kind: 'builtin'; readonly key: string };

/** What the selection looks at. */
export interface CompletionCatalog {
  readonly registrations: readonly CompletionRegistration[];
  readonly prompts: readonly PromptDefinition[];
  readonly resources: readonly ResourceDefinition[];
}

function isExecutableFile(path: string): boolean {
  try {
    const stat = statSync(path);
    return stat.isFile() && (process.platform === 'win32' || (stat.mode & 0o111) !== 0);
  } catch {
    return false;
  }
}

/**
 * A completion script beside a prompt or resource file (relative to `dir`), as 1.x looked
 * for them: `<file>.completion.sh`, `<file>.completion`, then the same for the file's
 * stem. It must be executable. Returns the path relative to `dir`.
 */
function scriptBeside(dir: string, relPath: string | undefined): string | undefined {
  if (!relPath) return undefined;
  const candidates = [`${relPath}.completion.sh`, `${relPath}.completion`];
  const stem = relPath.replace(/\.[^./]*$/, '');
  if (stem !== relPath) candidates.push(`${stem}.completion.sh`, `${stem}.completion`);
  return candidates.find((candidate) => isExecutableFile(join(dir, candidate)));
}

/**
 * Picks what completes `name` (original-behaviour §8.1): a manual registration of that
 * name, else a script beside the prompt of that name, else one beside the resource of that
 * name, else the built-in generator.
 */
export function selectCompletionSource(
  name: string,
  catalog: CompletionCatalog,
  layout: ProjectLayout,
): CompletionSource {
  const registration = catalog.registrations.find((entry) => entry.name === name);
  if (registration) {
    return {
      kind: 'manual',
      key: `manual:${registration.path}`,
      script: join(layout.root, registration.path),
      ...(registration.timeoutSecs !== undefined ? { timeoutSecs: registration.timeoutSecs } : {}),
    };
  }
  const prompt = catalog.prompts.find((entry) => entry.name === name);
  const promptScript = prompt && scriptBeside(layout.promptsDir, prompt.path);
  if (prompt && promptScript)
    return { kind: 'prompt', key: `prompt:${promptScript}`, script: join(layout.promptsDir, promptScript), prompt };
  const resource = catalog.resources.find((entry) => entry.name === name);
  const resourceScript = resource && scriptBeside(layout.resourcesDir, resource.path);
  if (resource && resourceScript) {
    return {
      kind: 'resource',
      key: `resource:${resourceScript}`,
      script: join(layout.resourcesDir, resourceScript),
      resource,
    };
  }
  return { kind: 'builtin', key: `builtin:${name}` };
}
