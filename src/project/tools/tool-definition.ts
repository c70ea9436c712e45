import { isObject } from '../../json/objects.js';
import { toolMeta } from '../../schemas/meta-files.js';
import type { Icon, JsonObject, ToolAnnotations } from '../../spec/types.js';
import { screenMetadata } from '../../validation/metadata-check.js';
import { resolveIcons } from '../icons.js';
import type { NormalizeContext } from '../registry/manual-kinds.js';
import { normalizeUiMeta, screenToolUiMeta } from '../ui/tool-ui-meta.js';
import { toolNameProblem } from './tool-name.js';

/** A tool as the registry keeps it (`.registry/tools.json` items). */
export interface ToolDefinition {
  name: string;
  title?: string;
  description: string;
  /** The script, relative to the tools directory. */
  path: string;
  inputSchema: JsonObject;
  outputSchema?: JsonObject;
  /** Seconds; null when the metadata sets none (the server default applies). */
  timeoutSecs: number | null;
  timeoutHint?: string;
  progressExtendsTimeout?: boolean;
  maxTimeoutSecs?: number;
  icons?: Icon[];
  annotations?: ToolAnnotations;
  _meta?: JsonObject;
}

const ANNOTATION_HINTS = ['readOnlyHint', 'destructiveHint', 'idempotentHint', 'openWorldHint'] as const;

function positiveInteger(value: unknown): number | undefined {
  const number = typeof value === 'string' && /^\d+$/.test(value) ? Number(value) : value;
  return typeof number === 'number' && Number.isInteger(number) && number > 0 ? number : undefined;
}

function annotationsFrom(value: unknown): ToolAnnotations | undefined {
  if (!isObject(value)) return undefined;
  const annotations: ToolAnnotations = {};
  if (typeof value.title === 'string') annotations.title = value.title;
  for (const hint of ANNOTATION_HINTS) {
    if (typeof value[hint] === 'boolean') annotations[hint] = value[hint] as boolean;
  }
  return annotations;
}

/** The inputSchema MCP gets: the metadata's object schema (1.x's `arguments` too), else an empty one. */
function inputSchemaFrom(raw: JsonObject): JsonObject {
  const schema = raw.inputSchema ?? raw.arguments;
  if (!isObject(schema)) return { type: 'object', properties: {} };
  return schema.type === undefined ? { type: 'object', properties: {}, ...schema } : schema;
}

/**
 * Turns metadata (meta.json merged over an inline header, or a register.json entry) into a
 * registry item, or says why it cannot be one: first the tool metadata format's checks
 * (schemas/meta-files.ts, the ones validate reports), which reject the entry or drop a bad
 * value with a warning; then defaults and icons. Unknown keys are dropped.
 */
export function normalizeTool(
  metadata: JsonObject,
  context: Required<NormalizeContext>,
): { tool?: ToolDefinition; error?: string; warnings: string[] } {
  const owner = context.owner;
  const screen = screenMetadata(toolMeta, metadata);
  const warnings = screen.warnings.map((warning) => `${owner}: ${warning}`);
  if (!screen.value) return { error: `${owner}: ${screen.rejected}`, warnings };
  const raw = screen.value;
  const name = typeof raw.name === 'string' && raw.name !== '' ? raw.name : context.defaultName;
  const nameProblem = toolNameProblem(name);
  if (nameProblem) return { error: `${owner}: ${nameProblem}`, warnings };
  const inputSchema = inputSchemaFrom(raw);
  const tool: ToolDefinition = {
    name,
    description: typeof raw.description === 'string' ? raw.description : '',
    path: context.path,
    inputSchema,
    timeoutSecs: null,
  };
  if (typeof raw.title === 'string' && raw.title !== '') tool.title = raw.title;
  if (isObject(raw.outputSchema)) tool.outputSchema = { type: 'object', ...raw.outputSchema };
  tool.timeoutSecs = positiveInteger(raw.timeoutSecs) ?? null;
  if (typeof raw.timeoutHint === 'string' && raw.timeoutHint !== '') tool.timeoutHint = raw.timeoutHint;
  if (raw.progressExtendsTimeout === true) tool.progressExtendsTimeout = true;
  const maxTimeout = positiveInteger(raw.maxTimeoutSecs);
  if (maxTimeout !== undefined) tool.maxTimeoutSecs = maxTimeout;
  const icons = resolveIcons(raw.icons, context.iconBase, warnings, owner);
  if (icons) tool.icons = icons;
  const annotations = annotationsFrom(raw.annotations);
  if (annotations) tool.annotations = annotations;
  if (isObject(raw._meta)) {
    const screened = screenToolUiMeta(normalizeUiMeta(raw._meta));
    tool._meta = screened.meta;
    warnings.push(...screened.warnings.map((warning) => `${owner}: ${warning}`));
  }
  return { tool, warnings };
}
