import type { EntryNormalizer } from '../registry/manual-kinds.js';
import { normalizeTool, type ToolDefinition } from './tool-definition.js';
import { dedupeByName } from './tool-discovery.js';

/**
 * Tools from register.json / register.sh: each needs a name and a script `path` relative
 * to the tools directory, and is normalised like a discovered tool so clients always get
 * valid MCP tool definitions.
 */
export function manualToolNormalizer(toolsDir: string): EntryNormalizer {
  return (entries) => {
    const errors: string[] = [];
    const warnings: string[] = [];
    const tools: ToolDefinition[] = [];
    entries.forEach((entry, index) => {
      const raw = entry as Record<string, unknown>;
      const owner = `tools[${index}]`;
      if (
        typeof raw !== 'object' ||
        raw === null ||
        typeof raw.name !== 'string' ||
        typeof raw.path !== 'string' ||
        raw.path === ''
      ) {
        errors.push(`${owner} needs a "name" and a "path" (the script, relative to the tools directory)`);
        return;
      }
      const normalized = normalizeTool(raw, { defaultName: raw.name, path: raw.path, iconBase: toolsDir, owner });
      warnings.push(...normalized.warnings);
      if (normalized.error) errors.push(normalized.error);
      else if (normalized.tool) tools.push(normalized.tool);
    });
    return { items: dedupeByName(tools, warnings, 'given'), errors, warnings };
  };
}
