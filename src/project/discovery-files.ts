// How discovery (tools, resources, prompts) finds and reads files on disk.
import { closeSync, type Dirent, openSync, readdirSync, readFileSync, readSync, statSync } from 'node:fs';
import { join } from 'node:path';
import type { JsonObject } from '../mcp/types.js';

/** Deep enough for any real layout; a symlink cycle stops here instead of looping. */
const MAX_DEPTH = 8;

/** Where a walk starts and which files it keeps. */
export interface WalkOptions {
  /** The depth of `dir` itself below the root the depths count from (a subtree walk). */
  readonly startDepth?: number;
  /** Files shallower than this are skipped (tools: files directly in tools/ are not tools). */
  readonly minFileDepth?: number;
}

function walk(dir: string, out: string[], depth: number, minFileDepth: number): void {
  let entries: Dirent[];
  try {
    entries = readdirSync(dir, { withFileTypes: true });
  } catch {
    return;
  }
  for (const entry of entries) {
    if (entry.name.startsWith('.')) continue;
    const path = join(dir, entry.name);
    let isDirectory = entry.isDirectory();
    let isFile = entry.isFile();
    if (entry.isSymbolicLink()) {
      try {
        const target = statSync(path);
        isDirectory = target.isDirectory();
        isFile = target.isFile();
      } catch {
        continue;
      }
    }
    if (isDirectory && depth < MAX_DEPTH) walk(path, out, depth + 1, minFileDepth);
    else if (isFile && depth >= minFileDepth) out.push(path);
  }
}

/**
 * Every regular, non-hidden file under `dir` (hidden directories skipped, symlinks
 * followed, depth-limited), sorted by path. Discovery of every kind walks with this.
 */
export function listFiles(dir: string, options: WalkOptions = {}): string[] {
  const out: string[] = [];
  walk(dir, out, options.startDepth ?? 0, options.minFileDepth ?? 0);
  return out.sort();
}

/** The first `bytes` of a file (a shebang, an inline `# mcp:` header); throws when unreadable. */
export function readHead(path: string, bytes = 4096): string {
  const fd = openSync(path, 'r');
  try {
    const buffer = Buffer.alloc(bytes);
    const read = readSync(fd, buffer, 0, bytes, 0);
    return buffer.subarray(0, read).toString('utf8');
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

/** A metadata file as a JSON object, or the reason it is not one. */
export function readMetadata(path: string): JsonObject | string {
  try {
    const parsed: unknown = JSON.parse(readFileSync(path, 'utf8'));
    if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) return 'not a JSON object';
    return parsed as JsonObject;
  } catch (error) {
    return (error as Error).message;
  }
}
