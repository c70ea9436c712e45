import { isObject } from '../../json/objects.js';
import { toolUiMeta } from '../../schemas/ui-files.js';
import type { JsonObject } from '../../spec/types.js';
import { screenMetadata } from '../../validation/metadata-check.js';
import type { ToolDefinition } from '../tools/tool-definition.js';
import { toolUiDir, type UiScanOptions, uiDirectoryResource } from './ui-discovery.js';

/** MCP Apps' deprecated flat key, superseded by `_meta.ui.resourceUri`. */
const DEPRECATED_RESOURCE_URI_KEY = 'ui/resourceUri';

/** Who may call a tool (MCP Apps `McpUiToolMeta.visibility`); the default is both. */
const DEFAULT_VISIBILITY = ['model', 'app'] as const;

/**
 * `_meta["ui/resourceUri"]` (deprecated) moved to `_meta.ui.resourceUri`, as 1.x did for tool
 * definitions and results; an explicit `ui.resourceUri` wins. Other keys are kept.
 */
export function normalizeUiMeta(meta: JsonObject): JsonObject {
  if (!(DEPRECATED_RESOURCE_URI_KEY in meta)) return meta;
  const { [DEPRECATED_RESOURCE_URI_KEY]: flat, ...rest } = meta;
  const ui = isObject(rest.ui) ? rest.ui : {};
  if (typeof flat !== 'string' || typeof ui.resourceUri === 'string') return rest;
  return { ...rest, ui: { ...ui, resourceUri: flat } };
}

/**
 * A tool's `_meta.ui` checked against MCP Apps' shape (schemas/ui-files.ts, the format
 * validate reports): a bad value is dropped with a warning, so inference or the host's
 * default applies; a `ui` that is no object is dropped whole. Other `_meta` keys are kept.
 */
export function screenToolUiMeta(meta: JsonObject): { meta: JsonObject; warnings: string[] } {
  if (!('ui' in meta)) return { meta, warnings: [] };
  const { ui, ...rest } = meta;
  if (!isObject(ui)) return { meta: rest, warnings: ['_meta.ui must be an object; ignored'] };
  const screen = screenMetadata(toolUiMeta, ui);
  return {
    meta: { ...rest, ui: screen.value ?? {} },
    warnings: screen.warnings.map((warning) => `_meta.ui.${warning}`),
  };
}

/** The tools-relative directory a tool belongs to (the first segment of its path). */
function toolDirectory(tool: ToolDefinition): string | undefined {
  const [first, ...rest] = tool.path.split('/');
  return rest.length > 0 ? first : undefined;
}

/**
 * A discovered tool whose directory has a UI (`tools/<dir>/ui/`) points at it:
 * `_meta.ui.resourceUri` = `ui://<server>/<dir>` and `visibility` `["model","app"]`, unless the
 * metadata sets either (1.x's tools_ui_inference). `toolsWithUi`: the tool directories that
 * have a `ui/`, when a walk of tools/ has just listed them.
 */
export function withInferredUi(
  tool: ToolDefinition,
  options: UiScanOptions,
  toolsWithUi?: ReadonlySet<string>,
): ToolDefinition {
  const dir = toolDirectory(tool);
  if (dir === undefined) return tool;
  // A walk of tools/ that just ran knows every directory: most tools have no ui/, and
  // asking the disk for each one's files would double a cold scan's system calls.
  if (toolsWithUi && !toolsWithUi.has(dir)) return tool;
  const { item } = uiDirectoryResource(toolUiDir(options.toolsDir, dir), dir, 'tool', { ...options, owner: dir });
  if (!item) return tool;
  const meta = tool._meta ?? {};
  const ui = isObject(meta.ui) ? meta.ui : {};
  return {
    ...tool,
    _meta: {
      ...meta,
      ui: {
        ...ui,
        resourceUri: typeof ui.resourceUri === 'string' ? ui.resourceUri : item.uri,
        visibility: Array.isArray(ui.visibility) ? ui.visibility : [...DEFAULT_VISIBILITY],
      },
    },
  };
}

/**
 * False for an app-only tool (`_meta.ui.visibility` without "model"): MCP Apps hosts keep
 * those out of the model's tool list.
 */
export function isVisibleToModel(tool: Pick<ToolDefinition, '_meta'>): boolean {
  const ui = tool._meta?.ui;
  if (!isObject(ui) || !Array.isArray(ui.visibility)) return true;
  return ui.visibility.includes('model');
}
