import { closeSync, openSync, readdirSync, readFileSync, readSync, statSync } from 'node:fs';
import { join } from 'node:path';
import type { JsonObject } from '../../mcp/types.js';

const MAX_DEPTH = 8;

/**
 * Every regular, non-hidden file under `dir` (hidden directories skipped, symlinks
 * followed, depth-limited so a link cycle cannot loop), sorted by path.
 */
export function listFiles(dir: string): string[] {
  const out: string[] = [];
  walk(dir, out, 0);
  return out.sort();
}

function walk(dir: string, out: string[], depth: number): void {
  let entries;
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
    if (isDirectory && depth < MAX_DEPTH) walk(path, out, depth + 1);
    else if (isFile) out.push(path);
  }
}

/** The first bytes of a file (enough for an inline `# mcp:` header), or '' when unreadable. */
export function readHead(path: string, bytes = 4096): string {
  try {
    const fd = openSync(path, 'r');
    try {
      const buffer = Buffer.alloc(bytes);
      const read = readSync(fd, buffer, 0, bytes, 0);
      return buffer.subarray(0, read).toString('utf8');
    } finally {
      closeSync(fd);
    }
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
