import { randomBytes } from 'node:crypto';
import { mkdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { isAbsolute, join } from 'node:path';

/**
 * The server's private scratch directory (per-call tool dirs, spilled payloads, the jq
 * wrapper): MCPBASH_STATE_DIR, else `<MCPBASH_TMP_ROOT or TMPDIR>/mcpbash.state.<ppid>.<pid>.<seed>`.
 */
export function createStateDir(env: Readonly<Record<string, string | undefined>>): string {
  const explicit = env.MCPBASH_STATE_DIR;
  if (explicit && isAbsolute(explicit)) {
    mkdirSync(explicit, { recursive: true, mode: 0o700 });
    return explicit;
  }
  const root = env.MCPBASH_TMP_ROOT && isAbsolute(env.MCPBASH_TMP_ROOT) ? env.MCPBASH_TMP_ROOT : tmpdir();
  const dir = join(root, `mcpbash.state.${process.ppid}.${process.pid}.${randomBytes(4).toString('hex')}`);
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  return dir;
}

export function removeStateDir(dir: string): void {
  rmSync(dir, { recursive: true, force: true });
}
