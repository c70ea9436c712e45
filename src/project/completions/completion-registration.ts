import { realpathSync, statSync } from 'node:fs';
import { resolve } from 'node:path';
import { isObject } from '../../json/objects.js';
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
      const name = isObject(entry) && typeof entry.name === 'string' ? entry.name.trim() : '';
      if (!isObject(entry) || name === '' || typeof entry.path !== 'string' || entry.path === '') {
        errors.push(`${owner} needs a "name" and a "path" (the script, relative to the project root)`);
        return;
      }
      if (seen.has(name)) {
        errors.push(`${owner}: completion "${name}" is registered twice`);
        return;
      }
      seen.add(name);
      const path = scriptPathInside(projectRoot, entry.path);
      if (typeof path === 'object') {
        errors.push(`${owner}: ${path.error}`);
        return;
      }
      const timeout = entry.timeoutSecs;
      const valid = typeof timeout === 'number' && Number.isInteger(timeout) && timeout > 0;
      if (timeout !== undefined && timeout !== null && !valid)
        warnings.push(`${owner}: timeoutSecs must be a positive integer; the default applies`);
      items.push({ name, path, ...(valid ? { timeoutSecs: timeout } : {}) });
    });
    items.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
    return { items, errors, warnings };
  };
}
