import { existsSync, statSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';

/** The file that marks a directory as an mcp-bash project. */
const PROJECT_MARKER = join('server.d', 'server.meta.json');

/** Walks up from `start` to the nearest directory holding `server.d/server.meta.json`. */
function detectProjectRoot(start: string): string | undefined {
  let dir = resolve(start);
  for (;;) {
    if (existsSync(join(dir, PROJECT_MARKER))) return dir;
    const parent = dirname(dir);
    if (parent === dir) return undefined;
    dir = parent;
  }
}

export interface ProjectRootSources {
  /** `--project-root DIR` of CLI commands. */
  readonly flag?: string | undefined;
  /** MCPBASH_PROJECT_ROOT. */
  readonly configured: string | undefined;
  readonly cwd: string;
}

export type ProjectRootResult =
  | { readonly kind: 'found'; readonly root: string; readonly source: 'flag' | 'env' | 'detected' }
  | { readonly kind: 'missing' }
  | { readonly kind: 'invalid'; readonly path: string; readonly source: 'flag' | 'env' };

/**
 * The directory `path` names, in normal form (resolve drops a trailing slash, `//` and `.`:
 * every path derived from the root is compared with it), or undefined when it is none.
 */
function checkDirectory(path: string, cwd: string): string | undefined {
  const absolute = resolve(cwd, path);
  try {
    return statSync(absolute).isDirectory() ? absolute : undefined;
  } catch {
    return undefined;
  }
}

/** `--project-root` → MCPBASH_PROJECT_ROOT → walk up from the working directory. */
export function resolveProjectRoot(sources: ProjectRootSources): ProjectRootResult {
  if (sources.flag) {
    const root = checkDirectory(sources.flag, sources.cwd);
    return root ? { kind: 'found', root, source: 'flag' } : { kind: 'invalid', path: sources.flag, source: 'flag' };
  }
  const fromEnv = sources.configured;
  if (fromEnv) {
    const root = checkDirectory(fromEnv, sources.cwd);
    return root ? { kind: 'found', root, source: 'env' } : { kind: 'invalid', path: fromEnv, source: 'env' };
  }
  const detected = detectProjectRoot(sources.cwd);
  return detected ? { kind: 'found', root: detected, source: 'detected' } : { kind: 'missing' };
}
