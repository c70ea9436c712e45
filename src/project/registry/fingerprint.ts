import { createHash } from 'node:crypto';
import { readdirSync, realpathSync, type Stats, statSync } from 'node:fs';
import { join } from 'node:path';

/**
 * A cheap snapshot of what a scan would read: every path under `roots` with its size and
 * mtime (hidden entries skipped). Equal fingerprints mean a rescan would find the same
 * files, so it is skipped.
 */
export function treeFingerprint(roots: readonly string[]): string {
  const hash = createHash('sha256');
  const visited = new Set<string>();
  for (const root of roots) addEntry(hash, root, root, visited);
  return hash.digest('hex');
}

function addEntry(hash: ReturnType<typeof createHash>, root: string, path: string, visited: Set<string>): void {
  let stat: Stats;
  try {
    stat = statSync(path);
  } catch {
    hash.update(`${path}\0missing\n`);
    return;
  }
  hash.update(`${path}\0${stat.size}\0${stat.mtimeMs}\0${stat.mode}\n`);
  if (!stat.isDirectory()) return;
  // Symlinked directories are followed once: a link cycle cannot loop the walk.
  let real: string;
  try {
    real = realpathSync(path);
  } catch {
    return;
  }
  if (visited.has(real)) return;
  visited.add(real);
  let names: string[];
  try {
    names = readdirSync(path).sort();
  } catch {
    return;
  }
  for (const name of names) {
    if (!name.startsWith('.')) addEntry(hash, root, join(path, name), visited);
  }
}
