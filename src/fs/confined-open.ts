import { closeSync, constants, fstatSync, lstatSync, openSync, readlinkSync, realpathSync, type Stats } from 'node:fs';
import { isPathWithin } from './contained-path.js';

/** A file opened for reading after checking that it is a regular file inside the roots. */
export interface ConfinedFile {
  readonly fd: number;
  /** Its canonical path. */
  readonly path: string;
  readonly stats: Stats;
}

/** Why a file was not opened. */
export type ConfinedRefusal = 'not-found' | 'outside' | 'not-regular' | 'changed';

/** Where the kernel says descriptor `fd` points (Linux), or undefined where it cannot say. */
function openedPath(fd: number): Buffer | undefined {
  if (process.platform !== 'linux') return undefined;
  try {
    return readlinkSync(`/proc/self/fd/${fd}`, { encoding: 'buffer' });
  } catch {
    return undefined;
  }
}

/** Whether the open file is the one now at canonical `path`, reached through no symbolic link. */
export function isStillAt(fd: number, path: string | Buffer, stats: Stats): boolean {
  const bytes = typeof path === 'string' ? Buffer.from(path) : path;
  const kernelPath = openedPath(fd);
  if (kernelPath !== undefined) return kernelPath.equals(bytes);
  // Elsewhere (macOS): the path must still be canonical and name this very file.
  try {
    const now = lstatSync(bytes);
    return realpathSync(bytes, { encoding: 'buffer' }).equals(bytes) && now.dev === stats.dev && now.ino === stats.ino;
  } catch {
    return false;
  }
}

/**
 * Opens `path` for reading only if it is a regular file inside one of `roots` (canonical
 * directories), checking the opened descriptor rather than the name, so that a local writer
 * who swaps the file (or a directory above it) for a symbolic link cannot get a file from
 * outside the roots read: the last component is opened with O_NOFOLLOW, and the descriptor
 * must be a regular file that is still at the checked path (on Linux the kernel's own path
 * of the descriptor; elsewhere its device and inode, which narrows but cannot close the
 * window for a swapped directory). The caller closes `fd`.
 */
export function openInsideRoots(path: string, roots: readonly string[]): ConfinedFile | ConfinedRefusal {
  let real: string;
  try {
    real = realpathSync(path);
  } catch {
    return 'not-found';
  }
  if (!roots.some((root) => isPathWithin(real, root))) return 'outside';
  let fd: number;
  try {
    fd = openSync(real, constants.O_RDONLY | (constants.O_NOFOLLOW ?? 0) | (constants.O_NONBLOCK ?? 0));
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'ELOOP' ? 'changed' : 'not-found';
  }
  const stats = fstatSync(fd);
  const refusal: ConfinedRefusal | undefined = !stats.isFile()
    ? 'not-regular'
    : isStillAt(fd, real, stats)
      ? undefined
      : 'changed';
  if (refusal === undefined) return { fd, path: real, stats };
  closeSync(fd);
  return refusal;
}
