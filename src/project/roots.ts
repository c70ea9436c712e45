import { accessSync, constants, readFileSync, realpathSync, statSync } from 'node:fs';
import { basename, isAbsolute, join, resolve } from 'node:path';
import { fileUriFromPath } from '../content/mime.js';
import { isPathWithin } from '../fs/contained-path.js';
import type { ProjectLayout } from './project-layout.js';

/** One MCP root as tools see it (MCP_ROOTS_JSON items). */
export interface RootEntry {
  readonly uri: string;
  readonly name: string;
  /** Absolute, symlinks resolved. */
  readonly path: string;
}

/** A readable directory or file, canonicalised; undefined otherwise. */
export function canonicalRoot(path: string): string | undefined {
  try {
    accessSync(path, constants.R_OK);
    statSync(path);
    return realpathSync(path);
  } catch {
    return undefined;
  }
}

export function rootEntry(path: string, name?: string): RootEntry {
  return { uri: fileUriFromPath(path), name: name && name !== '' ? name : basename(path) || path, path };
}

function fromRootsVariable(
  value: string,
  layout: ProjectLayout,
  warn: (message: string) => void,
): RootEntry[] | undefined {
  const entries: RootEntry[] = [];
  for (const raw of value.split(':').filter((item) => item !== '')) {
    // Relative entries are relative to the project, not to wherever the client started us (D14).
    const path = canonicalRoot(isAbsolute(raw) ? raw : resolve(layout.root, raw));
    if (!path) {
      warn(`MCPBASH_ROOTS entry "${raw}" does not exist or is not readable; ignoring MCPBASH_ROOTS`);
      return undefined;
    }
    entries.push(rootEntry(path));
  }
  return entries.length > 0 ? entries : undefined;
}

function fromRootsFile(layout: ProjectLayout, warn: (message: string) => void): RootEntry[] | undefined {
  const file = join(layout.root, 'config', 'roots.json');
  let parsed: unknown;
  try {
    parsed = JSON.parse(readFileSync(file, 'utf8'));
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') warn(`config/roots.json is not valid JSON; ignored`);
    return undefined;
  }
  const list = (parsed as { roots?: unknown }).roots;
  if (!Array.isArray(list)) {
    warn('config/roots.json needs a "roots" array; ignored');
    return undefined;
  }
  const entries: RootEntry[] = [];
  for (const item of list) {
    const raw = typeof item === 'string' ? item : (item as { path?: unknown })?.path;
    if (typeof raw !== 'string') continue;
    const path = canonicalRoot(isAbsolute(raw) ? raw : resolve(layout.root, raw));
    if (!path) {
      warn(`config/roots.json entry "${raw}" does not exist or is not readable; skipped`);
      continue;
    }
    const name = (item as { name?: unknown } | null)?.name;
    entries.push(rootEntry(path, typeof name === 'string' ? name : undefined));
  }
  return entries.length > 0 ? entries : undefined;
}

/**
 * The roots the operator configured: MCPBASH_ROOTS (colon list; every entry must exist),
 * else config/roots.json; undefined when neither names a usable root.
 */
export function configuredRoots(
  layout: ProjectLayout,
  variable: string | undefined,
  warn: (message: string) => void,
): RootEntry[] | undefined {
  const fromEnv = variable ? fromRootsVariable(variable, layout, warn) : undefined;
  return fromEnv ?? fromRootsFile(layout, warn);
}

/** The root that stands in when nothing configured any: the project root. */
export function implicitRoot(layout: ProjectLayout): RootEntry {
  return rootEntry(canonicalRoot(layout.root) ?? layout.root);
}

/**
 * The roots used until (or unless) the client provides its own: the configured roots
 * (MCPBASH_ROOTS, else config/roots.json), else the project root.
 */
export function fallbackRoots(
  layout: ProjectLayout,
  variable: string | undefined,
  warn: (message: string) => void,
): RootEntry[] {
  return configuredRoots(layout, variable, warn) ?? [implicitRoot(layout)];
}

/** Whether `path` (canonicalised) is a root or inside one; plain prefix comparison, no globbing. */
export function isInsideRoots(path: string, roots: readonly RootEntry[]): boolean {
  return roots.some((root) => isPathWithin(path, root.path));
}
