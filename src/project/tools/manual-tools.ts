import { dedupeByName } from '../discovery-files.js';
import { type EntryNormalizer, normalizeEach } from '../registry/manual-kinds.js';
import { normalizeTool, type ToolDefinition } from './tool-definition.js';

/**
 * Tools from register.json / register.sh: each needs a name and a script `path` relative
 * to the tools directory, and is normalised like a discovered tool so clients always get
 * valid MCP tool definitions.
 */
export function manualToolNormalizer(toolsDir: string): EntryNormalizer {
  const shape = 'needs a "name" and a "path" (the script, relative to the tools directory)';
  return (entries) => {
    const result = normalizeEach<ToolDefinition>(
      'tools',
      entries,
      (raw, owner) => {
        if (typeof raw.name !== 'string' || typeof raw.path !== 'string' || raw.path === '')
          return { error: `${owner} ${shape}`, warnings: [] };
        const { tool, ...rest } = normalizeTool(raw, {
          defaultName: raw.name,
          path: raw.path,
          iconBase: toolsDir,
          owner,
        });
        return { item: tool, ...rest };
      },
      shape,
    );
    // Array.prototype.sort is stable: equal names keep their registration order.
    return { ...result, items: dedupeByName(result.items, 'tool', result.warnings, (tool) => tool.path, false) };
  };
}
