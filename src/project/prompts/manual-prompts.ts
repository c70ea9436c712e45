import { join } from 'node:path';
import { isObject } from '../../json/objects.js';
import type { EntryNormalizer } from '../registry/manual-kinds.js';
import { normalizePrompt, type PromptDefinition } from './prompt-definition.js';
import { dedupePrompts, isInside } from './prompt-discovery.js';

/**
 * Prompts from register.json / register.sh: a `name` and optionally the template `path`
 * (relative to the prompts directory, and inside it), normalised like discovered prompts
 * (arguments schema, MCP role) and de-duplicated by name.
 */
export function manualPromptNormalizer(promptsDir: string): EntryNormalizer {
  return (entries) => {
    const errors: string[] = [];
    const warnings: string[] = [];
    const prompts: PromptDefinition[] = [];
    entries.forEach((entry, index) => {
      const owner = `prompts[${index}]`;
      if (!isObject(entry)) {
        errors.push(`${owner} must be an object`);
        return;
      }
      const path = typeof entry.path === 'string' && entry.path !== '' ? entry.path : undefined;
      if (path !== undefined && !isInside(promptsDir, join(promptsDir, path))) {
        errors.push(`${owner}: path "${path}" must stay inside the prompts directory`);
        return;
      }
      const normalized = normalizePrompt(entry, { iconBase: promptsDir, owner, ...(path ? { path } : {}) });
      warnings.push(...normalized.warnings);
      if (normalized.error) errors.push(normalized.error);
      else if (normalized.item) prompts.push(normalized.item);
    });
    return { items: dedupePrompts(prompts, warnings), errors, warnings };
  };
}
