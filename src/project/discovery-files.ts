// How discovery (tools, resources, prompts) finds and reads files on disk.
import { closeSync, type Dirent, openSync, readdirSync, readFileSync, readSync, realpathSync, statSync } from 'node:fs';
import { normalize, relative, sep } from 'node:path';
import type { JsonObject } from '../spec/types.js';

/** Deep enough for any real layout; a symlink cycle stops here instead of looping. */
const MAX_DEPTH = 8;

/** A regular file found by a walk, with what a fingerprint and discovery need of its stat. */
export interface FileEntry {
  readonly path: string;
  readonly size: number;
  readonly mtimeMs: number;
  readonly mode: number;
  /** Directories between the walk's root and the file (0: directly in the root). */
  readonly depth: number;
}

/** Everything a walk of one directory found: files and directories, each sorted by path. */
export interface TreeWalk {
  readonly files: readonly FileEntry[];
  readonly dirs: readonly string[];
}

function walk(dir: string, out: { files: FileEntry[]; dirs: string[] }, depth: number, visited: Set<string>): void {
  let entries: Dirent[];
  try {
    entries = readdirSync(dir, { withFileTypes: true });
  } catch {
    return;
  }
  // `dir` is already normal and `entry.name` a single segment: plain concatenation gives
  // join()'s result without normalizing the whole path again for each of thousands of files.
  const prefix = dir.endsWith(sep) ? dir : dir + sep;
  for (const entry of entries) {
    if (entry.name.startsWith('.')) continue;
    const path = prefix + entry.name;
    // Directories need no stat (their listing is what counts); files need theirs anyway.
    if (entry.isDirectory()) {
      out.dirs.push(path);
      if (depth < MAX_DEPTH) walk(path, out, depth + 1, visited);
      continue;
    }
    if (!entry.isFile() && !entry.isSymbolicLink()) continue;
    const stat = statSync(path, { throwIfNoEntry: false });
    if (!stat) continue;
    if (stat.isDirectory()) {
      // A symlinked directory is entered once: a link cycle cannot loop the walk.
      const real = realpathOrUndefined(path);
      if (real === undefined || visited.has(real)) continue;
      visited.add(real);
      out.dirs.push(path);
      if (depth < MAX_DEPTH) walk(path, out, depth + 1, visited);
    } else if (stat.isFile()) {
      out.files.push({ path, size: stat.size, mtimeMs: stat.mtimeMs, mode: stat.mode, depth });
    }
  }
}

function realpathOrUndefined(path: string): string | undefined {
  try {
    return realpathSync.native(path);
  } catch {
    return undefined;
  }
}

/** Plain text order (`<`), for sorting by name or path. */
export const byText = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

/** `to` relative to `from`, with `/` separators (how warnings and registry items name files). */
export function posixRelative(from: string, to: string): string {
  return relative(from, to).split(sep).join('/');
}

export function isFile(path: string): boolean {
  try {
    return statSync(path).isFile();
  } catch {
    return false;
  }
}

/**
 * Sorted by name, then `order` (false: as given); of several items with one name the first is
 * kept and the others are dropped with a warning naming `source` of each.
 */
export function dedupeByName<T extends { name: string }>(
  items: readonly T[],
  kind: string,
  warnings: string[],
  source: (item: T) => string,
  order: ((item: T) => string) | false = source,
): T[] {
  const seen = new Map<string, string>();
  return [...items]
    .sort((a, b) => byText(a.name, b.name) || (order ? byText(order(a), order(b)) : 0))
    .filter((item) => {
      const first = seen.get(item.name);
      if (first === undefined) seen.set(item.name, source(item));
      else warnings.push(`${source(item)}: ${kind} name "${item.name}" is already used by ${first}; skipped`);
      return first === undefined;
    });
}

/**
 * Every regular, non-hidden file and directory under `dir` (hidden entries skipped,
 * symlinks followed, depth-limited), with each file's stat. One walk serves both the
 * registry's fingerprint and discovery of every kind; undefined when `dir` is no directory.
 */
export function walkTree(dir: string): TreeWalk | undefined {
  const out = { files: [] as FileEntry[], dirs: [] as string[] };
  if (!statSync(dir, { throwIfNoEntry: false })?.isDirectory()) return undefined;
  const visited = new Set<string>();
  const real = realpathOrUndefined(dir);
  if (real !== undefined) visited.add(real);
  // Normalized once here, so the walk can build child paths by concatenation.
  walk(normalize(dir), out, 0, visited);
  out.files.sort((a, b) => byText(a.path, b.path));
  out.dirs.sort();
  return out;
}

/** The files of a walk at least `minDepth` directories deep (tools: files directly in tools/ are not tools). */
export function filesOf(tree: TreeWalk | undefined, minDepth = 0): FileEntry[] {
  return (tree?.files ?? []).filter((file) => file.depth >= minDepth);
}

/** The paths of filesOf(walkTree(dir)), sorted. */
export function listFiles(dir: string, minDepth = 0): string[] {
  return filesOf(walkTree(dir), minDepth).map((file) => file.path);
}

/** One buffer for every head read: discovery reads thousands of them, one at a time. */
let headBuffer = Buffer.alloc(4096);

/** Files this small are read whole: one call instead of open, read and close. */
const SMALL_FILE = 16 * 1024;

/**
 * The first `bytes` of a file (a shebang, an inline `# mcp:` header); throws when unreadable.
 * `size` (from a walk) lets a small file be read in one call.
 */
export function readHead(path: string, bytes = 4096, size?: number): string {
  if (size !== undefined && size <= SMALL_FILE) {
    // Reading as UTF-8 is one native call (a Buffer read is four); the head is searched for a
    // shebang and the `# mcp:` header, which a cut by characters instead of bytes cannot move.
    return readFileSync(path, 'utf8').slice(0, bytes);
  }
  if (headBuffer.length < bytes) headBuffer = Buffer.alloc(bytes);
  const fd = openSync(path, 'r');
  try {
    const read = readSync(fd, headBuffer, 0, bytes, 0);
    return headBuffer.toString('utf8', 0, read);
  } finally {
    closeSync(fd);
  }
}

/** readHead, or '' when the file cannot be read. */
export function readHeadOrEmpty(path: string, bytes = 4096): string {
  try {
    return readHead(path, bytes);
  } catch {
    return '';
  }
}

/** readMetadata's reason for valid JSON that is no object. */
export const NOT_AN_OBJECT = 'not a JSON object';

/** A metadata file as a JSON object, or the reason it is not one. */
export function readMetadata(path: string): JsonObject | string {
  try {
    const parsed: unknown = JSON.parse(readFileSync(path, 'utf8'));
    if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) return NOT_AN_OBJECT;
    return parsed as JsonObject;
  } catch (error) {
    return (error as Error).message;
  }
}
