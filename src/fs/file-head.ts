import { closeSync, openSync, readSync } from 'node:fs';

/** The first `bytes` bytes of the file at `path` (fewer when it is shorter); throws when it cannot be read. */
export function readFileHead(path: string, bytes: number): Buffer {
  const fd = openSync(path, 'r');
  try {
    const buffer = Buffer.alloc(bytes);
    return buffer.subarray(0, readSync(fd, buffer, 0, bytes, 0));
  } finally {
    closeSync(fd);
  }
}
