import { realpathSync, statSync } from 'node:fs';
import { resolve } from 'node:path';
import { completionRegistration } from '../../schemas/meta-files.js';
import { screenMetadata } from '../../validation/metadata-check.js';
import { byText } from '../discovery-files.js';
import { isInside } from '../prompts/prompt-discovery.js';
import { type EntryNormalizer, normalizeEach } from '../registry/manual-kinds.js';

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
  const shape = 'needs a "name" and a "path" (the script, relative to the project root)';
  return (entries) => {
    const seen = new Set<string>();
    const refuse = (error: string) => ({ error, warnings: [] });
    const result = normalizeEach<CompletionRegistration>(
      'completions',
      entries,
      (entry, owner) => {
        const { value, warnings } = screenMetadata(completionRegistration, entry);
        const name = typeof value?.name === 'string' ? value.name.trim() : '';
        if (!value || name === '' || typeof value.path !== 'string') return refuse(`${owner} ${shape}`);
        if (seen.has(name)) return refuse(`${owner}: completion "${name}" is registered twice`);
        seen.add(name);
        const path = scriptPathInside(projectRoot, value.path);
        if (typeof path === 'object') return refuse(`${owner}: ${path.error}`);
        const timeout = value.timeoutSecs;
        const seconds = timeout === undefined || timeout === null ? undefined : Number(timeout);
        const item = { name, path, ...(seconds !== undefined ? { timeoutSecs: seconds } : {}) };
        return { item, warnings: warnings.map((warning) => `${owner}: ${warning}`) };
      },
      shape,
    );
    return { ...result, items: result.items.sort((a, b) => byText(a.name, b.name)) };
  };
}
