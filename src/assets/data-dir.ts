import { chmodSync, lstatSync, mkdirSync } from 'node:fs';
import { tmpdir, userInfo } from 'node:os';
import { isAbsolute, join } from 'node:path';

/** The environment variables that decide where framework homes are extracted. */
export interface DataDirEnv {
  readonly HOME?: string | undefined;
  readonly XDG_DATA_HOME?: string | undefined;
  readonly LOCALAPPDATA?: string | undefined;
}

/**
 * The user's home: an absolute $HOME, else the account's home from the user database.
 * Undefined when neither gives one (a uid without a passwd entry in a container): callers
 * fall back to the private temp dir. A relative $HOME is ignored like a relative
 * XDG_DATA_HOME: os.homedir() would return it as it is and put user data inside the cwd.
 */
export function userHome(env: DataDirEnv): string | undefined {
  if (env.HOME && isAbsolute(env.HOME)) return env.HOME;
  try {
    const home = userInfo().homedir;
    return home && isAbsolute(home) ? home : undefined;
  } catch {
    return undefined;
  }
}

function underHome(env: DataDirEnv, ...parts: string[]): string | undefined {
  const home = userHome(env);
  return home === undefined ? undefined : join(home, ...parts);
}

/**
 * The directory holding one extracted framework home per version:
 * `$XDG_DATA_HOME/mcp-bash` (default `~/.local/share/mcp-bash`), `%LOCALAPPDATA%\mcp-bash` on Windows.
 * Undefined when there is no data dir at all (no XDG_DATA_HOME and no home).
 */
export function assetsParentDir(env: DataDirEnv, platform: NodeJS.Platform = process.platform): string | undefined {
  if (platform === 'win32') {
    const local =
      env.LOCALAPPDATA && isAbsolute(env.LOCALAPPDATA) ? env.LOCALAPPDATA : underHome(env, 'AppData', 'Local');
    return local === undefined ? undefined : join(local, 'mcp-bash');
  }
  // The XDG Base Directory spec says a relative XDG_DATA_HOME is invalid and must be ignored.
  const dataHome =
    env.XDG_DATA_HOME && isAbsolute(env.XDG_DATA_HOME) ? env.XDG_DATA_HOME : underHome(env, '.local', 'share');
  return dataHome === undefined ? undefined : join(dataHome, 'mcp-bash');
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
