import { randomBytes } from 'node:crypto';
import { mkdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { isAbsolute, join } from 'node:path';

/**
 * Where the server's private scratch directory goes (per-call tool dirs, spilled payloads,
 * the jq wrapper): MCPBASH_STATE_DIR, else `<MCPBASH_TMP_ROOT or TMPDIR>/mcpbash.state.<ppid>.<pid>.<seed>`.
 */
export function stateDirPath(env: Readonly<Record<string, string | undefined>>): string {
  const explicit = env.MCPBASH_STATE_DIR;
  if (explicit && isAbsolute(explicit)) return explicit;
  const root = env.MCPBASH_TMP_ROOT && isAbsolute(env.MCPBASH_TMP_ROOT) ? env.MCPBASH_TMP_ROOT : tmpdir();
  return join(root, `mcpbash.state.${process.ppid}.${process.pid}.${randomBytes(4).toString('hex')}`);
}

/** Creates the state dir (0700); throws the file-system error when it cannot. */
export function makeStateDir(dir: string): void {
  mkdirSync(dir, { recursive: true, mode: 0o700 });
}

/** stateDirPath, created. */
export function createStateDir(env: Readonly<Record<string, string | undefined>>): string {
  const dir = stateDirPath(env);
  makeStateDir(dir);
  return dir;
}

export function removeStateDir(dir: string): void {
  rmSync(dir, { recursive: true, force: true });
}
