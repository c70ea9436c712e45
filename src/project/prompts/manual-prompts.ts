import { join } from 'node:path';
import { isFile } from '../discovery-files.js';
import { type EntryNormalizer, normalizeEach } from '../registry/manual-kinds.js';
import { normalizePrompt, type PromptDefinition } from './prompt-definition.js';
import { dedupePrompts, isInside } from './prompt-discovery.js';

/**
 * Prompts from register.json / register.sh: a `name` and optionally the template `path`
 * (relative to the prompts directory, and inside it), normalised like discovered prompts
 * (arguments schema, MCP role) and de-duplicated by name.
 */
export function manualPromptNormalizer(promptsDir: string): EntryNormalizer {
  return (entries) => {
    const result = normalizeEach<PromptDefinition>('prompts', entries, (entry, owner) => {
      const path = typeof entry.path === 'string' && entry.path !== '' ? entry.path : undefined;
      if (path !== undefined && !isInside(promptsDir, join(promptsDir, path)))
        return { error: `${owner}: path "${path}" must stay inside the prompts directory`, warnings: [] };
      const resolve = (declared: string) => {
        const file = join(promptsDir, declared);
        return isInside(promptsDir, file) && isFile(file) ? declared : undefined;
      };
      return normalizePrompt(
        entry,
        { iconBase: promptsDir, owner, ...(path ? { path } : {}) },
        Object.assign(resolve, { where: 'inside the prompts directory' }),
      );
    });
    return { ...result, items: dedupePrompts(result.items, result.warnings) };
  };
}
