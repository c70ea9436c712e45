import { realpathSync, statSync } from 'node:fs';
import { resolve } from 'node:path';
import { isObject } from '../../json/objects.js';
import { completionRegistration } from '../../schemas/meta-files.js';
import { screenMetadata } from '../../validation/metadata-check.js';
import { isInside } from '../prompts/prompt-discovery.js';
import type { EntryNormalizer } from '../registry/manual-kinds.js';

/** A completion script registered by hand (register.json `completions`, register.sh). */
export interface CompletionRegistration {
  /** The prompt or resource name it completes arguments of. */
  readonly name: string;
  /** The script, relative to the project root. */
  readonly path: string;
  readonly timeoutSecs?: number;
}

/** The script's path relative to the (physical) project root, or why it is not usable. */
function scriptPathInside(projectRoot: string, path: string): string | { error: string } {
  let root: string;
  let real: string;
  try {
    root = realpathSync(projectRoot);
    real = realpathSync(resolve(root, path));
  } catch {
    return { error: `path "${path}" does not exist` };
  }
  if (!isInside(root, real)) return { error: `path "${path}" is outside the project root` };
  if (!statSync(real).isFile()) return { error: `path "${path}" is not a file` };
  return path;
}

/**
 * Completions from register.json / register.sh: `{name, path, timeoutSecs?}`, the path an
 * existing file inside the project root. A missing name or path, a path outside the root,
 * or a name registered twice is an error (1.x's rules).
 */
export function manualCompletionNormalizer(projectRoot: string): EntryNormalizer {
  return (entries) => {
    const errors: string[] = [];
    const warnings: string[] = [];
    const items: CompletionRegistration[] = [];
    const seen = new Set<string>();
    entries.forEach((entry, index) => {
      const owner = `completions[${index}]`;
      const screen = isObject(entry) ? screenMetadata(completionRegistration, entry) : undefined;
      const value = screen?.value;
      const name = typeof value?.name === 'string' ? value.name.trim() : '';
      if (!screen || !value || name === '' || typeof value.path !== 'string') {
        errors.push(`${owner} needs a "name" and a "path" (the script, relative to the project root)`);
        return;
      }
      if (seen.has(name)) {
        errors.push(`${owner}: completion "${name}" is registered twice`);
        return;
      }
      seen.add(name);
      const path = scriptPathInside(projectRoot, value.path);
      if (typeof path === 'object') {
        errors.push(`${owner}: ${path.error}`);
        return;
      }
      warnings.push(...screen.warnings.map((warning) => `${owner}: ${warning}`));
      const timeout = value.timeoutSecs;
      const seconds = timeout === undefined || timeout === null ? undefined : Number(timeout);
      items.push({ name, path, ...(seconds !== undefined ? { timeoutSecs: seconds } : {}) });
    });
    items.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
    return { items, errors, warnings };
  };
}
