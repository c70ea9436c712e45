import { lstatSync, mkdirSync, readlinkSync, realpathSync, renameSync, symlinkSync } from 'node:fs';
import { dirname, isAbsolute, join, resolve } from 'node:path';
import { userHome } from '../../assets/data-dir.js';
import type { Env } from '../../config/env-values.js';

/** 1.x's shim states (`doctor --json` shim.status). */
type ShimStatus = 'ok' | 'missing' | 'broken' | 'wrong_target' | 'not_symlink';

/** `~/.local/bin/mcp-bash` (or `$XDG_BIN_HOME/mcp-bash`): the link that puts mcp-bash on PATH. */
export interface ShimState {
  readonly path: string;
  /** Where the link points (or null). */
  readonly target: string | null;
  readonly status: ShimStatus;
  readonly detail: string;
}

/** Where the shim lives: `$XDG_BIN_HOME/mcp-bash`, else `~/.local/bin/mcp-bash`; undefined without a home. */
export function shimPath(env: Env): string | undefined {
  const home = userHome(env);
  const binDir =
    env.XDG_BIN_HOME && isAbsolute(env.XDG_BIN_HOME)
      ? env.XDG_BIN_HOME
      : home === undefined
        ? undefined
        : join(home, '.local', 'bin');
  return binDir === undefined ? undefined : join(binDir, process.platform === 'win32' ? 'mcp-bash.exe' : 'mcp-bash');
}

function real(path: string): string | undefined {
  try {
    return realpathSync(path);
  } catch {
    return undefined;
  }
}

/** Where the shim stands relative to `self` (this binary's real path). */
export function inspectShim(path: string, self: string): ShimState {
  let isLink: boolean;
  try {
    isLink = lstatSync(path).isSymbolicLink();
  } catch {
    return { path, target: null, status: 'missing', detail: 'no such file' };
  }
  const resolved = real(path);
  if (resolved === real(self))
    return {
      path,
      target: isLink ? readlinkSync(path) : null,
      status: 'ok',
      detail: isLink ? 'links to this binary' : 'is this binary',
    };
  if (!isLink)
    return { path, target: null, status: 'not_symlink', detail: 'a file that is not this binary (an older install?)' };
  const target = readlinkSync(path);
  return resolved === undefined
    ? { path, target, status: 'broken', detail: `links to ${target}, which does not exist` }
    : { path, target, status: 'wrong_target', detail: `links to ${resolved}, not to this binary` };
}

/** Points the shim at `self`: a new link, or an existing link replaced atomically. Never replaces a regular file. */
export function repairShim(state: ShimState, self: string): void {
  if (state.status === 'not_symlink' || state.status === 'ok')
    throw new Error(`refusing to replace ${state.path} (${state.detail})`);
  mkdirSync(dirname(state.path), { recursive: true });
  const temp = `${state.path}.tmp-${process.pid}`;
  symlinkSync(resolve(self), temp);
  renameSync(temp, state.path);
}
