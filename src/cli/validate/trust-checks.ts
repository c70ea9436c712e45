import { chmodSync, lstatSync } from 'node:fs';
import { insecureFileReason } from '../../project/secure-file.js';
import type { CheckContext, Section } from './validation-report.js';

/** What the server must trust before it reads or runs a project file. */
export interface TrustedFile {
  /** The file, then the directories the server checks with it (server.d/, the project root). */
  readonly file: string;
  readonly parents: readonly string[];
  /** What the server does while it is untrusted: the start of the error. */
  readonly consequence: string;
  /** The path the finding names, when not `file` (a symlinked script names the link). */
  readonly shownAs?: string;
  /** False when --fix must not touch it (the target of a symlink). */
  readonly mayFix?: boolean;
}

/** The mode of a path --fix may repair (ours, not a symlink, writable by group or others); else undefined. */
function groupWritable(path: string): number | undefined {
  try {
    const stat = lstatSync(path);
    if (stat.isSymbolicLink() || (stat.mode & 0o022) === 0) return undefined;
    if (process.getuid && stat.uid !== process.getuid()) return undefined;
    return stat.mode;
  } catch {
    return undefined;
  }
}

/**
 * Reports (error) when the server would refuse `entry.file` by its own rule
 * (insecureFileReason); with --fix first removes group/other write from the file and its
 * directories, as `chmod go-w` would. Returns whether the server refuses it.
 */
export function checkTrusted(ctx: CheckContext, section: Section, entry: TrustedFile): boolean {
  const { file, parents } = entry;
  const repairable = (entry.mayFix === false ? [] : [file, ...parents]).flatMap((path) => {
    const mode = groupWritable(path);
    return mode === undefined ? [] : [{ path, mode }];
  });
  if (ctx.fix) {
    for (const { path, mode } of repairable) {
      chmodSync(path, mode & ~0o022 & 0o7777);
      ctx.report.fixesApplied += 1;
      const from =
        path === file ? '' : path === ctx.report.root ? ' from the project root' : ` from ${ctx.report.rel(path)}/`;
      ctx.report.info(section, `removed group/other write permission${from} (--fix)`, { file: entry.shownAs ?? file });
    }
  }
  const reason = insecureFileReason(file, parents);
  if (reason === undefined) return false;
  ctx.report.error(section, `${entry.consequence}: ${reason}`, {
    file: entry.shownAs ?? file,
    fixable: !ctx.fix && repairable.length > 0 && reason.includes('writable by group or others'),
  });
  return true;
}
