import { randomBytes } from 'node:crypto';
import { chmodSync, existsSync, linkSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';

export interface AtomicWriteOptions {
  /** The file's mode, exact whatever the umask. */
  readonly mode: number;
  /** Replace an existing file (rename); otherwise an existing file fails with EEXIST. */
  readonly replace: boolean;
}

/** Errors of file systems that cannot make hard links: fall back to a checked rename. */
const NO_HARD_LINKS = new Set(['EPERM', 'ENOTSUP', 'EOPNOTSUPP', 'ENOSYS', 'EMLINK']);

function alreadyExists(path: string): Error {
  return Object.assign(new Error(`EEXIST: file already exists, open '${path}'`), {
    code: 'EEXIST',
    syscall: 'open',
    path,
  });
}

/**
 * Writes a file whole or not at all: the content goes to a temp file beside it, which then
 * becomes `path` by a hard link (a new file: never replaces one, even in a race) or a rename
 * (`replace`). On any failure (a full disk mid-write) the temp file is removed and `path` is
 * as it was: no empty or half-written file is left to block a retry. `path` itself is never
 * followed if it is a symlink: a rename replaces the link, a link fails with EEXIST.
 */
export function writeFileAtomic(path: string, content: string | Buffer, options: AtomicWriteOptions): void {
  const temp = join(dirname(path), `.${basename(path)}.${randomBytes(6).toString('hex')}.tmp`);
  try {
    writeFileSync(temp, content, { flag: 'wx', mode: options.mode });
    chmodSync(temp, options.mode);
    if (options.replace) {
      renameSync(temp, path);
      return;
    }
    try {
      linkSync(temp, path);
    } catch (error) {
      if (!NO_HARD_LINKS.has((error as NodeJS.ErrnoException).code ?? '')) throw error;
      if (existsSync(path)) throw alreadyExists(path);
      renameSync(temp, path);
    }
  } finally {
    rmSync(temp, { force: true });
  }
}

/** Replaces the content of the regular file `path` whole or not at all, keeping its mode. */
export function rewriteFileAtomic(path: string, content: string | Buffer): void {
  writeFileAtomic(path, content, { mode: statSync(path).mode & 0o7777, replace: true });
}
