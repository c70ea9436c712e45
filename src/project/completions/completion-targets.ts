import type { ProjectLayout } from '../project-layout.js';
import { discoverPrompts } from '../prompts/prompt-discovery.js';
import type { RawRegistrations } from '../registry/manual-kinds.js';
import { scanResources } from '../resources/resource-discovery.js';

/** What a name completion/complete may ask for belongs to. */
export type CompletionTarget = 'prompt' | 'resource' | 'resource template';

/** The `name` of each register.json entry of a kind. */
function entryNames(entries: readonly unknown[]): string[] {
  return entries.flatMap((entry) => {
    const name = (entry as { name?: unknown } | null)?.name;
    return typeof name === 'string' ? [name] : [];
  });
}

/**
 * The names completion/complete can be asked to complete in a project (original-behaviour
 * §8: a prompt's name, or the name of the resource or template a `ref/resource` URI
 * resolves to), each with what it names. A kind register.json lists replaces its discovery,
 * as in the server.
 */
export function completionTargets(
  layout: ProjectLayout,
  registered: RawRegistrations = {},
): Map<string, CompletionTarget> {
  const targets = new Map<string, CompletionTarget>();
  const add = (names: readonly string[], target: CompletionTarget) => {
    for (const name of names) if (!targets.has(name)) targets.set(name, target);
  };
  const { prompts, resources, resourceTemplates: templates } = registered;
  add(
    Array.isArray(prompts)
      ? entryNames(prompts)
      : discoverPrompts(layout.promptsDir, layout.root).items.map((p) => p.name),
    'prompt',
  );
  const scan = Array.isArray(resources) && Array.isArray(templates) ? undefined : scanResources(layout.resourcesDir);
  add(Array.isArray(resources) ? entryNames(resources) : (scan?.resources ?? []).map((r) => r.name), 'resource');
  add(
    Array.isArray(templates) ? entryNames(templates) : (scan?.templates ?? []).map((r) => r.name),
    'resource template',
  );
  return targets;
}

/**
 * The registered name that makes a completion called `name` answer: `name` itself when a
 * prompt, resource or template has it, else the name `scaffold prompt|resource <name>`
 * gives (`prompt.<name>`, `resource.<name>`) when one has that; undefined when none has.
 */
export function completionTargetFor(
  name: string,
  targets: ReadonlyMap<string, CompletionTarget>,
): { readonly name: string; readonly target: CompletionTarget } | undefined {
  for (const candidate of [name, `prompt.${name}`, `resource.${name}`]) {
    const target = targets.get(candidate);
    if (target) return { name: candidate, target };
  }
  return undefined;
}
