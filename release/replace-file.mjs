// Replacing a build output in one step: anything that runs dist/mcp-bash (or the bundle) while
// a build is under way sees the old file or the new one, never a missing or half-written one.
import { existsSync, renameSync, rmSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';

/**
 * Calls `write(tempPath)` with a path next to `target` (same directory, so the rename stays on
 * one file system; same extension, for tools that care), then renames the result over `target`.
 * When `write` throws or writes nothing, `target` is left as it was and the temp file removed.
 */
export function replaceFile(target, write) {
  const temp = join(dirname(target), `.${process.pid}-${basename(target)}`);
  rmSync(temp, { force: true });
  try {
    write(temp);
    if (!existsSync(temp)) throw new Error(`nothing was written for ${target}`);
    renameSync(temp, target);
  } finally {
    rmSync(temp, { force: true });
  }
}
