import { closeSync, openSync, readSync, statSync } from 'node:fs';

/**
 * How to start a project script (tool, provider, completion): directly when it is
 * executable and starts with a shebang, else through bash - as 1.x did for scripts without
 * the executable bit or a shebang (and as Windows always needs).
 */
export function scriptCommand(path: string): { command: string; args: string[] } {
  if (process.platform !== 'win32') {
    try {
      const executable = (statSync(path).mode & 0o111) !== 0;
      const fd = openSync(path, 'r');
      const head = Buffer.alloc(2);
      try {
        readSync(fd, head, 0, 2, 0);
      } finally {
        closeSync(fd);
      }
      if (executable && head.toString() === '#!') return { command: path, args: [] };
    } catch {
      // fall through: bash reports the problem on stderr
    }
  }
  return { command: 'bash', args: [path] };
}
