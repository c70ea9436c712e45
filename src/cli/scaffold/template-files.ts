import { chmodSync, existsSync, mkdirSync, readFileSync, rmSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import type { FrameworkHome } from '../../assets/framework-home.js';
import { writeFileAtomic } from '../../fs/atomic-write.js';
import { isSystemError, systemErrorCause } from '../../fs/system-errors.js';
import { CliError } from '../cli-error.js';

/** Values for a template's placeholders, e.g. `{ __NAME__: 'my-tool' }`. */
export type TemplateValues = Readonly<Record<string, string>>;

/** Modes of the files we create: scripts 0755, the rest 0644 - never group-writable (the server refuses such files). */
export const SCRIPT_MODE = 0o755;
export const FILE_MODE = 0o644;
/** Mode of the directories we create: the server refuses a group- or world-writable server.d/ or project root. */
export const DIRECTORY_MODE = 0o755;

/**
 * Creates `dir` and its missing parents, each 0755 whatever the umask (mkdir's mode is
 * masked by it, so a umask of 002 would give 0775). Directories that existed are left alone.
 */
export function makeDirectories(dir: string): void {
  const first = mkdirSync(dir, { recursive: true });
  if (first === undefined) return;
  const top = resolve(first);
  for (let current = resolve(dir); ; current = dirname(current)) {
    chmodSync(current, DIRECTORY_MODE);
    if (current === top || current === dirname(current)) break;
  }
}

/** The text of `<home>/scaffold/<kind>/<file>`. */
export function readTemplate(home: FrameworkHome, kind: string, file: string): string {
  const path = join(home.scaffoldDir, kind, file);
  try {
    return readFileSync(path, 'utf8');
  } catch {
    throw new CliError(
      `the scaffold template ${path} is missing`,
      1,
      "Run 'mcp-bash doctor --fix' to restore the framework files.",
    );
  }
}

/** The description `mcp-bash new` / `init` write into server.meta.json, a placeholder (undefined if unreadable). */
export function scaffoldServerDescription(home: FrameworkHome): string | undefined {
  try {
    const template = JSON.parse(readTemplate(home, 'server', 'server.meta.json')) as { description?: unknown };
    return typeof template.description === 'string' ? template.description : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Replaces each placeholder with its value. In JSON templates the values are escaped as JSON
 * string content, so a path with quotes or backslashes still gives valid JSON.
 */
export function renderTemplate(text: string, values: TemplateValues, json = false): string {
  let out = text;
  for (const [placeholder, value] of Object.entries(values)) {
    const replacement = json ? JSON.stringify(value).slice(1, -1) : value;
    out = out.split(placeholder).join(replacement);
  }
  return out;
}

/**
 * Creates a file that must not exist yet (never overwrites, even in a race), whole or not at
 * all (a full disk leaves no empty file behind), with an exact mode whatever the umask,
 * creating its directory.
 */
export function writeNewFile(path: string, content: string, mode: number = FILE_MODE): void {
  try {
    makeDirectories(dirname(path));
    writeFileAtomic(path, content, { mode, replace: false });
  } catch (error) {
    throw fileSystemFailure(error, path);
  }
}

/** For each new file: its topmost directory that does not exist yet, or the file itself. */
function topmostNew(targets: readonly string[]): string[] {
  const found = new Set<string>();
  for (const target of targets) {
    let top = target;
    for (let dir = dirname(target); dir !== dirname(dir) && !existsSync(dir); dir = dirname(dir)) top = dir;
    found.add(top);
  }
  return [...found];
}

/**
 * Runs `write`, which creates `targets` (files that do not exist yet, and their missing
 * directories). If it fails, whatever of them it created is removed again, so that a failed
 * scaffold leaves nothing behind and can simply be run again.
 */
export function allOrNothing<T>(targets: readonly string[], write: () => T): T {
  const created = topmostNew(targets);
  try {
    return write();
  } catch (error) {
    for (const path of created) rmSync(path, { recursive: true, force: true });
    throw error;
  }
}

/** A file-system error as a CliError that says what failed, why, and what to check. */
export function fileSystemFailure(error: unknown, path: string): CliError {
  if (error instanceof CliError) return error;
  const code = (error as NodeJS.ErrnoException).code ?? '';
  if (code === 'EEXIST')
    return new CliError(`${path} already exists`, 1, 'mcp-bash never overwrites files: move it away first.');
  const cause = isSystemError(error) ? systemErrorCause(error) : (error as Error).message;
  return new CliError(
    `cannot write ${path}: ${cause}`,
    1,
    code === 'EACCES' || code === 'EPERM' || code === 'EROFS'
      ? 'Check that the directory is writable by you.'
      : code === 'ENOSPC' || code === 'EDQUOT' || code === 'EFBIG'
        ? 'Nothing was left half-written: free some space, then run the command again.'
        : undefined,
  );
}

/** Renders `<home>/scaffold/<kind>/<template>` into `target` (which must not exist). */
export function writeFromTemplate(
  home: FrameworkHome,
  kind: string,
  template: string,
  target: string,
  values: TemplateValues,
  mode: number = FILE_MODE,
): void {
  writeNewFile(target, renderTemplate(readTemplate(home, kind, template), values, template.endsWith('.json')), mode);
}

/** Refuses (exit 1) when any of `paths` exists: scaffolds never overwrite a user's file. */
export function refuseExisting(paths: readonly string[], display: (path: string) => string): void {
  const existing = paths.filter((path) => existsSync(path));
  if (existing.length > 0) {
    throw new CliError(
      `${existing.map(display).join(', ')} already ${existing.length === 1 ? 'exists' : 'exist'}`,
      1,
      'Choose another name, or move the existing files away first (mcp-bash never overwrites them).',
    );
  }
}
