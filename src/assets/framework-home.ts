import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { isSystemError, systemErrorLine } from '../fs/system-errors.js';
import { assetsParentDir, type DataDirEnv, privateTempParent } from './data-dir.js';
import { type AssetBundle, ensureExtracted } from './extract-archive.js';

/** Where the framework's Bash files live: the SDK, built-in providers, scaffolds, examples. */
export interface FrameworkHome {
  /** Exported to tools and providers as MCPBASH_HOME. */
  readonly root: string;
  /** Exported to tools as MCP_SDK (holds tool-sdk.sh). */
  readonly sdkDir: string;
  readonly providersDir: string;
  readonly scaffoldDir: string;
  readonly examplesDir: string;
  /** The project served when none is configured (getting-started mode). */
  readonly bootstrapDir: string;
  /** Bash drivers for project hooks (register.sh, policy.sh, health-checks.sh). */
  readonly hooksDir: string;
  /** `env`: MCPBASH_HOME; `extracted`: the data dir; `fallback`: the private temp dir. */
  readonly origin: 'env' | 'extracted' | 'fallback';
  /** For `fallback`: why the data dir was not used (its error, or that there is none). */
  readonly fallbackCause?: string;
}

/** Why there is no data dir at all. */
const NO_DATA_DIR =
  'there is no data dir (no absolute HOME or XDG_DATA_HOME, and no home for this user in the user database)';

/** The archive path of the file whose presence proves an extraction is usable. */
export const SDK_SENTINEL = 'sdk/tool-sdk.sh';

/** The layout of an extracted home (and of a 1.x install): sdk/, providers/, scaffold/, examples/. */
function extractedLayout(root: string, origin: FrameworkHome['origin']): FrameworkHome {
  return {
    root,
    sdkDir: join(root, 'sdk'),
    providersDir: join(root, 'providers'),
    scaffoldDir: join(root, 'scaffold'),
    examplesDir: join(root, 'examples'),
    bootstrapDir: join(root, 'bootstrap'),
    hooksDir: join(root, 'hooks'),
    origin,
  };
}

/** The layout of this repository's source tree, so MCPBASH_HOME=<checkout> works in development. */
function sourceTreeLayout(root: string): FrameworkHome {
  return {
    root,
    sdkDir: join(root, 'sdk-sh'),
    providersDir: join(root, 'assets', 'providers'),
    scaffoldDir: join(root, 'assets', 'scaffold'),
    examplesDir: join(root, 'assets', 'examples'),
    bootstrapDir: join(root, 'assets', 'bootstrap'),
    hooksDir: join(root, 'assets', 'hooks'),
    origin: 'env',
  };
}

/**
 * Recognises a directory given as MCPBASH_HOME: an extracted home or this repository's
 * source tree. A 1.x install (which has an sdk/ but not our hooks/) is not one of ours.
 */
export function frameworkHomeAt(dir: string): FrameworkHome | null {
  const root = resolve(dir);
  if (existsSync(join(root, SDK_SENTINEL)) && existsSync(join(root, 'hooks', 'register-hook.sh'))) {
    return extractedLayout(root, 'env');
  }
  if (
    existsSync(join(root, 'sdk-sh', 'tool-sdk.sh')) &&
    existsSync(join(root, 'assets', 'hooks', 'register-hook.sh'))
  ) {
    return sourceTreeLayout(root);
  }
  return null;
}

/**
 * Finds the framework files: `override` (MCPBASH_HOME) when it names a framework dir (development),
 * else the versioned extraction in the data dir, created on first run; when the data dir
 * is not writable (read-only home, locked-down container), a private temp dir instead.
 */
export function resolveFrameworkHome(
  override: string | undefined,
  env: DataDirEnv,
  bundle: AssetBundle,
  debug: (message: string) => void = () => {},
): FrameworkHome {
  if (override) {
    const home = frameworkHomeAt(override);
    if (home) {
      debug(`framework files at ${override} (MCPBASH_HOME)`);
      return home;
    }
    debug(`MCPBASH_HOME=${override} is not an mcp-bash 2.x framework directory; using the embedded framework files`);
  }
  const primary = assetsParentDir(env);
  let fallbackCause = NO_DATA_DIR;
  if (primary !== undefined) {
    try {
      const { dir, extracted } = ensureExtracted(primary, bundle);
      debug(extracted ? `extracted framework files to ${dir}` : `framework files at ${dir} (extracted before)`);
      return extractedLayout(dir, 'extracted');
    } catch (error) {
      const cause = isSystemError(error) ? systemErrorLine(error) : (error as Error).message;
      fallbackCause = `cannot use ${primary}: ${cause}`;
    }
  }
  debug(`${fallbackCause}; falling back to a private temp dir`);
  const { dir } = ensureExtracted(privateTempParent(), bundle);
  debug(`framework files at ${dir}`);
  return { ...extractedLayout(dir, 'fallback'), fallbackCause };
}
