import { isAbsolute, resolve } from 'node:path';
import { canonicalRoot, type RootEntry, rootEntry } from '../../project/roots.js';
import { CliError, ExitCode } from '../cli-error.js';

/**
 * `--roots a,b`: comma-separated (not colon: Windows drive letters) paths, relative ones
 * against the working directory; every entry must exist and be readable, else exit 1.
 */
export function parseRootsOption(value: string, cwd: string): RootEntry[] {
  const entries: RootEntry[] = [];
  for (const raw of value
    .split(',')
    .map((item) => item.trim())
    .filter((item) => item !== '')) {
    const path = canonicalRoot(isAbsolute(raw) ? raw : resolve(cwd, raw));
    if (!path)
      throw new CliError(
        `--roots entry "${raw}" does not exist or is not readable`,
        ExitCode.Failure,
        'Give existing directories, separated by commas: --roots /repo,/data',
      );
    if (!entries.some((entry) => entry.path === path)) entries.push(rootEntry(path));
  }
  if (entries.length === 0) throw new CliError('--roots needs at least one path', ExitCode.Failure);
  return entries;
}
