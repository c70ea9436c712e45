import { chmodSync, lstatSync, realpathSync, statSync } from 'node:fs';
import { basename, extname } from 'node:path';
import { readFileHead } from '../../fs/file-head.js';
import { shellQuote } from '../../process/shell-quote.js';
import { checkTrusted } from './trust-checks.js';
import type { CheckContext, Section } from './validation-report.js';

/**
 * With --fix, makes a script executable (never through a symlink). Runs before discovery
 * too, so the rest of the report describes the project as --fix left it.
 */
export function fixExecutable(ctx: CheckContext, section: Section, path: string): void {
  if (!ctx.fix) return;
  try {
    if (lstatSync(path).isSymbolicLink()) return;
    const mode = statSync(path).mode;
    if ((mode & 0o111) !== 0) return;
    chmodSync(path, mode | 0o111);
  } catch {
    return; // missing: reported by checkScriptFile
  }
  ctx.report.fixesApplied += 1;
  ctx.report.info(section, 'made executable (--fix)', { file: path });
}

/**
 * A script with Windows (CRLF) line endings: bash reads each `\r` as part of the line, so the
 * shebang names `bash\r` ("No such file or directory") and commands end in `$'\r'`. Reported,
 * not repaired: --fix changes permissions only, never a file's content.
 */
export function checkLineEndings(ctx: CheckContext, section: Section, path: string): void {
  let head: string;
  try {
    head = readFileHead(path, 64 * 1024).toString('utf8');
  } catch {
    return; // missing or unreadable: reported where it matters
  }
  if (!head.includes('\r\n') || !breaksOnCrlf(path, head)) return;
  const file = shellQuote(ctx.report.rel(path));
  ctx.report.error(
    section,
    `Windows (CRLF) line endings, which bash cannot run ("bash\\r: No such file or directory", ` +
      `"$'\\r': command not found"); convert it: sed -i 's/\\r$//' ${file} (or dos2unix ${file})`,
    { file: path },
  );
}

const SHELLS = ['sh', 'bash', 'dash', 'ksh', 'zsh'];

/**
 * Whether CRLF line endings stop this file from running: a shebang line ending in `\r` (any
 * interpreter, when run directly), or a shell script (what bash reads line by line). Not a
 * binary (a NUL byte), nor a data file or another language's script past its first line.
 */
function breaksOnCrlf(path: string, head: string): boolean {
  if (head.includes('\0')) return false;
  const firstLine = head.slice(0, head.indexOf('\n') + 1);
  if (firstLine.startsWith('#!') && firstLine.endsWith('\r\n')) return true;
  const program = shebangProgram(path);
  return program !== undefined ? SHELLS.includes(program) : ['.sh', '.bash'].includes(extname(path));
}

/** The program a script's shebang names (`#!/usr/bin/env -S python3 -u`: python3), if any. */
function shebangProgram(path: string): string | undefined {
  const line = readFileHead(path, 256).toString('utf8').split(/\r?\n/, 1)[0] ?? '';
  if (!line.startsWith('#!')) return undefined;
  const words = line.slice(2).trim().split(/\s+/);
  let index = basename(words[0] ?? '') === 'env' ? 1 : 0;
  // env's own options (-S, -i) come before the program.
  while (index > 0 && words[index]?.startsWith('-')) index += 1;
  return basename(words[index] ?? '') || undefined;
}

/**
 * The server runs a script without the executable bit through bash (as 1.x did), so a Bash
 * script works and only a direct run (`./tool.sh`) fails: a warning (D231). One that bash
 * cannot run as meant is an error: another interpreter's shebang, or nothing that makes it
 * a script at all.
 */
function checkExecutable(ctx: CheckContext, section: Section, path: string, symlink: boolean): void {
  if (!symlink) fixExecutable(ctx, section, path);
  if ((statSync(path).mode & 0o111) !== 0) return;
  const repair = symlink ? 'chmod +x the file it links to' : 'chmod +x, or mcp-bash validate --fix';
  const program = shebangProgram(path);
  const [level, what] =
    program === undefined && !['.sh', '.bash'].includes(extname(path))
      ? (['error', ', and without a shebang or .sh name it is not run at all'] as const)
      : program !== undefined && program !== 'bash' && program !== 'sh'
        ? (['error', `, so the server runs it with bash, not ${program}`] as const)
        : (['warning', ': the server runs it with bash, but it cannot be run directly'] as const);
  ctx.report[level](section, `not executable${what} (${repair})`, { file: path, fixable: !symlink });
}

function checkWritable(ctx: CheckContext, section: Section, path: string, symlink: boolean): void {
  checkTrusted(ctx, section, {
    file: symlink ? realpathSync(path) : path,
    parents: [],
    consequence: 'the server refuses to run it',
    shownAs: path,
    mayFix: !symlink,
  });
}

/**
 * The checks on a script the server runs (a tool, a completion): Unix line endings,
 * executable (`--fix`: chmod +x, never through a symlink), a shebang, and as trustworthy as the server requires
 * (owned by us, not writable by group or others; `--fix`: chmod go-w).
 */
export function checkScriptFile(ctx: CheckContext, section: Section, path: string): void {
  let symlink: boolean;
  try {
    symlink = lstatSync(path).isSymbolicLink();
    statSync(path);
  } catch {
    ctx.report.error(section, 'missing (or a broken symlink)', { file: path });
    return;
  }
  let start: string;
  try {
    start = readFileHead(path, 2).toString('utf8');
  } catch (error) {
    // The server lists such a tool (its meta.json describes it), but bash cannot run it.
    const code = (error as NodeJS.ErrnoException).code ?? (error as Error).message;
    ctx.report.error(section, `cannot be read (${code}): bash cannot run it; check its permissions`, { file: path });
    return;
  }
  checkLineEndings(ctx, section, path);
  checkExecutable(ctx, section, path, symlink);
  if (start !== '#!')
    ctx.report.warning(section, 'no shebang line (start it with #!/usr/bin/env bash)', { file: path });
  checkWritable(ctx, section, path, symlink);
}
