import { listFiles } from '../../project/discovery-files.js';

/**
 * Every non-hidden regular file under `dir`, as discovery sees them (symlinks followed,
 * depth-limited), sorted. `minDepth` 1 leaves out files directly in `dir` (tools live in
 * sub-directories).
 */
export function listProjectFiles(dir: string, minDepth = 0): string[] {
  return listFiles(dir, { minFileDepth: minDepth });
}

/** The `*.meta.json` files among `files`. */
export function metaFiles(files: readonly string[]): string[] {
  return files.filter((path) => path.endsWith('.meta.json'));
}
