import { isAbsolute, relative, resolve, sep } from 'node:path';
import { dedupeByName } from '../discovery-files.js';
import type { ProjectLayout } from '../project-layout.js';
import type { ToolDefinition } from './tool-definition.js';

/**
 * MCPBASH_REGISTRY_REFRESH_PATH / `registry refresh --filter` as a path relative to the tools
 * directory ('' for all of it), or why it cannot be one. The value is a literal path -
 * relative to the project root, else to the tools directory, or absolute - and is never
 * expanded as a glob: `tools/a*` is the directory named `a*`.
 */
export function resolveToolsSubtree(layout: ProjectLayout, value: string): string | { error: string } {
  const candidates = isAbsolute(value) ? [value] : [resolve(layout.root, value), resolve(layout.toolsDir, value)];
  for (const candidate of candidates) {
    const rel = relative(layout.toolsDir, candidate);
    if (rel.split(sep)[0] !== '..' && !isAbsolute(rel)) return rel.split(sep).join('/');
  }
  return { error: `${value} is not inside the tools directory (${layout.toolsDir})` };
}

/** Whether a tools-relative path lies in the subtree (plain string comparison, no patterns). */
export function isInSubtree(path: string, subtree: string): boolean {
  return subtree === '' || path === subtree || path.startsWith(`${subtree}/`);
}

/**
 * A registry after scanning only `subtree` (1.x's refresh path): the previous registry's
 * tools outside the subtree stay as they were, those inside are replaced by what the scan
 * found. Without a previous registry this is just the scan.
 */
export function mergeSubtreeScan(
  previous: readonly ToolDefinition[],
  scanned: readonly ToolDefinition[],
  subtree: string,
  warnings: string[],
): ToolDefinition[] {
  // The previous registry may come from a cache file: keep only entries with a name and path.
  const kept = previous.filter(
    (tool) => typeof tool?.name === 'string' && typeof tool.path === 'string' && !isInSubtree(tool.path, subtree),
  );
  return dedupeByName([...kept, ...scanned], 'tool', warnings, (tool) => tool.path);
}
