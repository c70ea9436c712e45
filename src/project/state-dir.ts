import { randomBytes } from 'node:crypto';
import { mkdirSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { isAbsolute, join, resolve } from 'node:path';

/** MCPBASH_STATE_DIR and MCPBASH_TMP_ROOT (PathsConfig). */
export interface StateDirPaths {
  readonly stateDir: string | undefined;
  readonly tmpRoot: string | undefined;
}

/** MCPBASH_TMP_ROOT when absolute, else the system temp dir (TMPDIR). */
export function tempRoot(paths: Pick<StateDirPaths, 'tmpRoot'>): string {
  return paths.tmpRoot && isAbsolute(paths.tmpRoot) ? paths.tmpRoot : tmpdir();
}

/**
 * Where the server's private scratch directory goes (per-call tool dirs, spilled payloads,
 * the jq wrapper): MCPBASH_STATE_DIR, else `<MCPBASH_TMP_ROOT or TMPDIR>/mcpbash.state.<ppid>.<pid>.<seed>`.
 */
export function stateDirPath(paths: StateDirPaths): string {
  const explicit = paths.stateDir;
  if (explicit && isAbsolute(explicit)) return explicit;
  const root = tempRoot(paths);
  return join(root, `mcpbash.state.${process.ppid}.${process.pid}.${randomBytes(4).toString('hex')}`);
}

/**
 * State dirs this process created, the only ones it removes: a directory MCPBASH_STATE_DIR
 * names that already existed belongs to whoever made it (1.x deleted it with all it held,
 * a project included when the variable named one: decision D264).
 */
const createdHere = new Set<string>();

/** Creates the state dir (0700); throws the file-system error when it cannot. */
export function makeStateDir(dir: string): void {
  const existed = statSync(dir, { throwIfNoEntry: false }) !== undefined;
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  if (!existed) createdHere.add(resolve(dir));
}

/** stateDirPath, created. */
export function createStateDir(paths: StateDirPaths): string {
  const dir = stateDirPath(paths);
  makeStateDir(dir);
  return dir;
}

/** Removes a state dir this process created; one that was there before is left as it is. */
export function removeStateDir(dir: string): void {
  if (!createdHere.delete(resolve(dir))) return;
  rmSync(dir, { recursive: true, force: true });
}
