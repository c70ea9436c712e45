import { readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';

/**
 * Every non-hidden regular file under `dir` (symlinks followed, depth-limited), sorted.
 * `minDepth` 1 leaves out files directly in `dir` (tools live in sub-directories).
 */
export function listProjectFiles(dir: string, minDepth = 0): string[] {
  const out: string[] = [];
  const walk = (current: string, depth: number) => {
    let entries;
    try {
      entries = readdirSync(current, { withFileTypes: true });
    } catch {
      return;
    }
    for (const entry of entries) {
      if (entry.name.startsWith('.')) continue;
      const path = join(current, entry.name);
      let stat;
      try {
        stat = statSync(path);
      } catch {
        continue;
      }
      if (stat.isDirectory() && depth < 8) walk(path, depth + 1);
      else if (stat.isFile() && depth >= minDepth) out.push(path);
    }
  };
  walk(dir, 0);
  return out.sort();
}

/** The `*.meta.json` files among `files`. */
export function metaFiles(files: readonly string[]): string[] {
  return files.filter((path) => path.endsWith('.meta.json'));
}
