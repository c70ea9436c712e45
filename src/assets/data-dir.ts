import { chmodSync, lstatSync, mkdirSync } from 'node:fs';
import { homedir, tmpdir } from 'node:os';
import { isAbsolute, join } from 'node:path';

/** The environment variables that decide where framework homes are extracted. */
export interface DataDirEnv {
  readonly HOME?: string | undefined;
  readonly XDG_DATA_HOME?: string | undefined;
  readonly LOCALAPPDATA?: string | undefined;
}

function userHome(env: DataDirEnv): string {
  return env.HOME && isAbsolute(env.HOME) ? env.HOME : homedir();
}

/**
 * The directory holding one extracted framework home per version:
 * `$XDG_DATA_HOME/mcp-bash` (default `~/.local/share/mcp-bash`), `%LOCALAPPDATA%\mcp-bash` on Windows.
 */
export function assetsParentDir(env: DataDirEnv, platform: NodeJS.Platform = process.platform): string {
  if (platform === 'win32') {
    const local =
      env.LOCALAPPDATA && isAbsolute(env.LOCALAPPDATA) ? env.LOCALAPPDATA : join(userHome(env), 'AppData', 'Local');
    return join(local, 'mcp-bash');
  }
  // The XDG Base Directory spec says a relative XDG_DATA_HOME is invalid and must be ignored.
  const dataHome =
    env.XDG_DATA_HOME && isAbsolute(env.XDG_DATA_HOME) ? env.XDG_DATA_HOME : join(userHome(env), '.local', 'share');
  return join(dataHome, 'mcp-bash');
}

/**
 * A per-user 0700 directory under the temp dir, used when the data dir is not writable.
 * Refuses one that is a symlink or belongs to someone else: another user could have
 * planted it to feed us their scripts.
 */
export function privateTempParent(): string {
  const uid = typeof process.getuid === 'function' ? process.getuid() : undefined;
  const dir = join(tmpdir(), `mcp-bash-${uid ?? 'user'}`);
  try {
    mkdirSync(dir, { mode: 0o700 });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
  }
  const stat = lstatSync(dir);
  if (stat.isSymbolicLink() || !stat.isDirectory()) {
    throw new Error(`refusing to use ${dir}: it is a symlink or not a directory`);
  }
  if (uid !== undefined && stat.uid !== uid) {
    throw new Error(`refusing to use ${dir}: it belongs to uid ${stat.uid}, not ${uid}`);
  }
  if (uid !== undefined && (stat.mode & 0o077) !== 0) chmodSync(dir, 0o700);
  return dir;
}
