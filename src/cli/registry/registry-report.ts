import { statSync } from 'node:fs';
import { join } from 'node:path';
import type { ProjectLayout } from '../../project/project-layout.js';
import type { ProjectRegistries } from '../../project/project-registries.js';
import { inspectRegistryCache } from '../../project/registry/registry-cache.js';
import type { RegistryKind } from '../../project/registry/registry-store.js';
import { isInSubtree } from '../../project/tools/tools-subtree.js';
import { UI_CACHE_FILE } from '../../project/ui/ui-source.js';

/** One kind's outcome of `registry refresh`. */
export interface KindRefresh {
  status: 'ok' | 'failed' | 'skipped';
  count?: number;
  error?: string;
  filter?: string;
  matched?: number;
}

/** The cache file of each kind. */
export const CACHE_FILES: ReadonlyArray<[key: RegistryKind, file: string]> = [
  ['tools', 'tools.json'],
  ['resources', 'resources.json'],
  ['resourceTemplates', 'resource-templates.json'],
  ['prompts', 'prompts.json'],
  ['ui', UI_CACHE_FILE],
];

/**
 * Rebuilds every registry of the project (a forced scan each, as 1.x's refresh always
 * rescans) and writes `.registry/`. With a filter (the registries' tools subtree, set from
 * `--filter` or MCPBASH_REGISTRY_REFRESH_PATH), only that part of tools/ is scanned and the
 * rest of the previous registry is kept; the report says how many tools live under it.
 */
export async function refreshAll(
  registries: ProjectRegistries,
  filter: string | undefined,
): Promise<Record<string, KindRefresh>> {
  const out: Record<string, KindRefresh> = {};
  for (const store of registries.all()) {
    try {
      const snapshot = await store.snapshot(true);
      out[store.kind] = { status: 'ok', count: snapshot.items.length };
      if (store.kind === 'tools' && filter !== undefined) {
        const matched = snapshot.items.filter((tool) =>
          isInSubtree((tool as { path?: string }).path ?? '', filter),
        ).length;
        Object.assign(out[store.kind] as KindRefresh, { filter, matched });
      }
    } catch (error) {
      out[store.kind] = { status: 'failed', error: (error as Error).message };
    }
  }
  for (const [key] of CACHE_FILES) out[key] ??= { status: 'skipped' };
  return out;
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
  const read = inspectRegistryCache<unknown>(path, Number.MAX_SAFE_INTEGER);
  if (!('cache' in read)) return { status: 'invalid', path, mtime, reason: read.reason };
  const { envelope } = read.cache;
  return { status: 'present', path, count: envelope.items.length, hash: envelope.hash, mtime };
}
