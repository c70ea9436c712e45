import { lstatSync, type Stats } from 'node:fs';
import { dirname } from 'node:path';

/**
 * Project files that run as code (register.sh, policy.sh, health-checks.sh) or decide what
 * runs (register.json) must be trustworthy: a regular file (not a symlink), owned by the
 * user running the server, not writable by group or others, in a directory with the same
 * properties. Returns the reason it is not, or undefined when it is.
 */
export function insecureFileReason(path: string, parents: readonly string[] = [dirname(path)]): string | undefined {
  const own = checkEntry(path, 'file');
  if (own) return own;
  for (const parent of parents) {
    const reason = checkEntry(parent, 'directory');
    if (reason) return reason;
  }
  return undefined;
}

function checkEntry(path: string, kind: 'file' | 'directory'): string | undefined {
  let stat: Stats;
  try {
    stat = lstatSync(path);
  } catch (error) {
    return `${path} cannot be read (${(error as NodeJS.ErrnoException).code ?? 'error'})`;
  }
  if (stat.isSymbolicLink()) return `${path} is a symlink`;
  if (kind === 'file' ? !stat.isFile() : !stat.isDirectory()) return `${path} is not a ${kind}`;
  if (process.platform === 'win32') return undefined;
  const uid = process.getuid?.();
  if (uid !== undefined && stat.uid !== uid)
    return `${path} is owned by uid ${stat.uid}, not by the server's uid ${uid}`;
  if ((stat.mode & 0o022) !== 0)
    return `${path} is writable by group or others (mode ${(stat.mode & 0o777).toString(8)}; chmod go-w fixes it)`;
  return undefined;
}
