import { existsSync, lstatSync, readdirSync, realpathSync, statSync } from 'node:fs';
import { isAbsolute, join, sep } from 'node:path';
import { CliError, ExitCode } from '../../cli/cli-error.js';
import { isPathWithin } from '../../fs/contained-path.js';
import { readFileHead } from '../../fs/file-head.js';
import { isSystemError, systemErrorCause } from '../../fs/system-errors.js';
import { type IgnoreRules, projectIgnoreRules } from './ignore-rules.js';
import type { ArchiveEntry } from './zip-writer.js';

/** What a bundle's `server/` holds by default (D15 adds `ui/`); `VERSION` is a file. */
const DEFAULT_DIRS = ['tools', 'resources', 'prompts', 'completions', 'server.d', 'lib', 'providers', 'ui'];
const DEFAULT_FILES = ['VERSION'];
/** Never bundled: editor and OS litter, version control, and the registry we rebuild. */
const SKIPPED_NAMES = new Set(['.DS_Store', 'Thumbs.db', '.git', '.svn', '.hg']);

/** A project file or folder the exclusions left out, and the rule that did. */
export interface LeftOut {
  readonly path: string;
  readonly reason: string;
}

/** A file name as bytes, shown with its invalid bytes as `\xNN`. */
function showName(name: Buffer): string {
  return [...name]
    .map((byte) =>
      byte >= 0x20 && byte < 0x7f ? String.fromCharCode(byte) : `\\x${byte.toString(16).padStart(2, '0')}`,
    )
    .join('');
}

/** The names in a directory; a name that is not UTF-8 cannot go into a bundle (MCPB paths are UTF-8). */
function directoryNames(dir: string): { names: string[]; invalid: string[] } {
  const names: string[] = [];
  const invalid: string[] = [];
  for (const raw of readdirSync(dir, { encoding: 'buffer' })) {
    const name = raw.toString('utf8');
    if (Buffer.from(name, 'utf8').equals(raw)) names.push(name);
    else invalid.push(showName(raw));
  }
  return { names: names.sort(), invalid: invalid.sort() };
}

/** 0755 for executables (the x bit, or a shebang: Windows checkouts lose bits), else 0644. */
function normalizedMode(path: string, mode: number): number {
  return (mode & 0o111) !== 0 || readFileHead(path, 2).toString() === '#!' ? 0o755 : 0o644;
}

/** Why a path cannot be resolved: a symlink to nothing, or the error that says why. */
function unreadable(abs: string, error: unknown): string {
  try {
    if (lstatSync(abs).isSymbolicLink()) return 'a broken symlink';
  } catch {
    // fall through to the error itself
  }
  return isSystemError(error) ? `cannot be read: ${systemErrorCause(error)}` : `cannot be read: ${String(error)}`;
}

class Walker {
  readonly entries: ArchiveEntry[] = [];
  readonly warnings: string[] = [];
  readonly leftOut: LeftOut[] = [];
  private readonly paths = new Set<string>();
  /** The real paths of the directories being walked: a symlink back to one of them is a loop. */
  private readonly ancestors = new Set<string>();

  constructor(
    private readonly root: string,
    private readonly realRoot: string,
    private readonly ignore: IgnoreRules,
    /** Real paths never bundled: the bundle being written when it is inside the project. */
    private readonly outputs: ReadonlySet<string>,
  ) {}

  /** Adds `rel` (a file or a directory, recursively) under `server/`. */
  add(rel: string): void {
    const abs = join(this.root, rel);
    let real: string;
    try {
      real = realpathSync(abs);
    } catch (error) {
      this.warnings.push(`${rel}: ${unreadable(abs, error)}; left out`);
      return;
    }
    // Symlinks are followed inside the project only: one to ~/.ssh must not ship.
    if (!isPathWithin(real, this.realRoot)) {
      this.warnings.push(`${rel}: a symlink out of the project; left out`);
      return;
    }
    const stat = statSync(real);
    const posix = rel.split(sep).join('/');
    if (this.outputs.has(real)) {
      this.leftOut.push({ path: posix, reason: 'the bundle being written' });
      return;
    }
    const ignored = this.ignore.match(posix, stat.isDirectory());
    if (ignored) {
      this.leftOut.push({ path: posix, reason: `matches ${ignored.pattern} (${ignored.source})` });
      return;
    }
    if (stat.isDirectory()) this.addDirectory(rel, real);
    else if (stat.isFile()) this.addFile(`server/${posix}`, real, stat.mode);
  }

  /** Once per archive path: MCPB_INCLUDE entries may overlap ("config config/a.json"). */
  private addFile(path: string, real: string, mode: number): void {
    if (this.paths.has(path)) return;
    this.paths.add(path);
    this.entries.push({ path, mode: normalizedMode(real, mode), source: real });
  }

  /**
   * A second symlink to a folder is bundled again under its own path (the server reaches it
   * there); only a link to a folder it is inside of is left out, which would never end.
   */
  private addDirectory(rel: string, real: string): void {
    if (this.ancestors.has(real)) {
      this.warnings.push(`${rel}: a symlink to a folder it is inside of (a loop); left out`);
      return;
    }
    this.ancestors.add(real);
    try {
      const { names, invalid } = directoryNames(join(this.root, rel));
      for (const name of invalid)
        this.warnings.push(
          `${join(rel, name)}: a file name that is not valid UTF-8 (bundles need UTF-8 names); left out`,
        );
      for (const name of names) {
        if (!SKIPPED_NAMES.has(name)) this.add(join(rel, name));
      }
    } finally {
      this.ancestors.delete(real);
    }
  }
}

/** Problems of MCPB_INCLUDE entries, each naming the entry; empty when all are usable. */
export function includeProblems(root: string, include: readonly string[]): string[] {
  const problems: string[] = [];
  const realRoot = realpathSync(root);
  for (const item of include) {
    const segments = item.split(/[\\/]+/).filter((segment) => segment !== '');
    if (isAbsolute(item) || /^[A-Za-z]:/.test(item))
      problems.push(`${item}: an absolute path (give one relative to the project)`);
    else if (item.startsWith('./') || item.startsWith('../'))
      problems.push(`${item}: starts with ./ or ../ (give the bare relative path)`);
    else if (segments.includes('..') || segments.includes('.')) problems.push(`${item}: path traversal is not allowed`);
    else if ([...DEFAULT_DIRS, ...DEFAULT_FILES, '.registry'].includes(segments[0] ?? ''))
      problems.push(`${item}: ${segments[0]} is bundled already`);
    else if (!existsSync(join(root, item))) problems.push(`${item}: not found in the project`);
    else if (!isPathWithin(realpathSync(join(root, item)), realRoot))
      problems.push(`${item}: leads out of the project`);
  }
  return problems;
}

/**
 * The project's files for `server/`: the default directories and VERSION that exist,
 * then MCPB_INCLUDE's (checked first: a bad entry fails the bundle, naming it).
 */
export function collectProjectFiles(root: string, include: readonly string[], outputPaths: readonly string[] = []) {
  const problems = includeProblems(root, include);
  if (problems.length > 0) {
    throw new CliError(
      `MCPB_INCLUDE is not valid:\n${problems.map((problem) => `  - ${problem}`).join('\n')}`,
      ExitCode.Failure,
      'MCPB_INCLUDE lists extra directories or files of the project, relative to its root, e.g. ' +
        'MCPB_INCLUDE="config data".',
    );
  }
  const outputs = new Set(outputPaths.filter((path) => existsSync(path)).map((path) => realpathSync(path)));
  const walker = new Walker(root, realpathSync(root), projectIgnoreRules(root), outputs);
  for (const rel of [...DEFAULT_DIRS, ...DEFAULT_FILES, ...include]) {
    if (existsSync(join(root, rel))) walker.add(rel);
  }
  return { entries: walker.entries, warnings: walker.warnings, leftOut: walker.leftOut };
}
