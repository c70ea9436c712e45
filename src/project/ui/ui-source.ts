import { join } from 'node:path';
import type { ProjectLayout } from '../project-layout.js';
import type { RegistrySource } from '../registry/registry-store.js';
import { scanUiResources } from './ui-discovery.js';
import type { UiResourceDefinition } from './ui-resource.js';

/** The cache file 1.x used for UI resources, kept for `registry status`. */
export const UI_CACHE_FILE = 'ui-resources.json';

/**
 * UI resources as a registry source (`.registry/ui-resources.json`, MCP_UI_TTL): tool UI
 * directories and standalone `ui/` ones. register.json has no UI kind, so discovery always
 * decides. server.meta.json is watched because the URIs carry the server's name.
 */
export function uiResourcesSource(
  layout: ProjectLayout,
  ttlMs: number,
  serverName: () => string,
): RegistrySource<UiResourceDefinition> {
  return {
    kind: 'ui',
    cacheFile: join(layout.registryDir, UI_CACHE_FILE),
    ttlMs,
    watchedPaths: [layout.toolsDir, layout.uiDir, join(layout.serverDir, 'server.meta.json')],
    scan: (_previous, tree) => scanUiResources({ ...layout, serverName: serverName() }, tree.walkOf(layout.toolsDir)),
    manual: async () => ({ mode: 'auto', key: '' }),
  };
}
