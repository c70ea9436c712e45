import { statSync } from 'node:fs';
import { join, relative, resolve, sep } from 'node:path';
import type { ProjectLayout } from '../../project/project-layout.js';
import type { ProjectRegistries } from '../../project/project-registries.js';
import { readRegistryCache } from '../../project/registry/registry-cache.js';
import type { RegistryKind } from '../../project/registry/registry-store.js';

/** One kind's outcome of `registry refresh`. */
export interface KindRefresh {
  status: 'ok' | 'failed' | 'skipped';
  count?: number;
  error?: string;
  filter?: string;
  matched?: number;
}

/** The cache file of each kind (and of 1.x's UI resources, which 2.x does not serve). */
export const CACHE_FILES: ReadonlyArray<[key: RegistryKind | 'ui', file: string]> = [
  ['tools', 'tools.json'],
  ['resources', 'resources.json'],
  ['resourceTemplates', 'resource-templates.json'],
  ['prompts', 'prompts.json'],
  ['ui', 'ui-resources.json'],
];

/**
 * Rebuilds every registry of the project (a forced scan each, as 1.x's refresh always
 * rescans) and writes `.registry/`. `filter` (a sub-path of the tools directory) reports how
 * many tools live under it; the cache keeps every tool, so the server never serves a part.
 */
export async function refreshAll(registries: ProjectRegistries, filter: string | undefined): Promise<Record<string, KindRefresh>> {
  const out: Record<string, KindRefresh> = {};
  for (const store of registries.all()) {
    try {
      const snapshot = await store.snapshot(true);
      out[store.kind] = { status: 'ok', count: snapshot.items.length };
      if (store.kind === 'tools' && filter !== undefined) {
        const matched = snapshot.items.filter((tool) => {
          const path = (tool as { path?: string }).path ?? '';
          return filter === '' || path === filter || path.startsWith(`${filter}/`);
        }).length;
        Object.assign(out[store.kind] as KindRefresh, { filter, matched });
      }
    } catch (error) {
      out[store.kind] = { status: 'failed', error: (error as Error).message };
    }
  }
  for (const [key] of CACHE_FILES) out[key] ??= { status: 'skipped' };
  return out;
}

/** `--filter` as a tools-relative literal path (no glob), or an error message. */
export function toolsFilter(layout: ProjectLayout, value: string): string | { error: string } {
  const inTools = resolve(layout.toolsDir, value);
  const fromRoot = resolve(layout.root, value);
  for (const candidate of [fromRoot, inTools]) {
    const rel = relative(layout.toolsDir, candidate);
    if (rel === '' || (!rel.startsWith('..') && !rel.startsWith(sep) && !/^[A-Za-z]:/.test(rel))) return rel.split(sep).join('/');
  }
  return { error: `--filter ${value} is not inside the tools directory (${layout.toolsDir})` };
}

/** One cache file as `registry status` shows it. */
export function cacheStatus(layout: ProjectLayout, file: string): Record<string, unknown> {
  const path = join(layout.registryDir, file);
  let mtime: string;
  try {
    mtime = statSync(path).mtime.toISOString();
  } catch {
    return { status: 'missing', path };
  }
  const cached = readRegistryCache<unknown>(path, Number.MAX_SAFE_INTEGER);
  if (!cached) return { status: 'invalid', path, mtime };
  return { status: 'present', path, count: cached.envelope.items.length, hash: cached.envelope.hash, mtime };
}
