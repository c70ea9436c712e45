import { isObject } from '../../json/objects.js';
import type { Icon, JsonObject, ToolAnnotations } from '../../mcp/types.js';
import { resolveIcons } from '../icons.js';
import { normalizeUiMeta } from '../ui/tool-ui-meta.js';
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

function annotationsFrom(value: unknown, warnings: string[], owner: string): ToolAnnotations | undefined {
  if (value === undefined) return undefined;
  if (!isObject(value)) {
    warnings.push(`${owner}: annotations must be an object; ignored`);
    return undefined;
  }
  const annotations: ToolAnnotations = {};
  if (typeof value.title === 'string') annotations.title = value.title;
  for (const hint of ANNOTATION_HINTS) {
    if (typeof value[hint] === 'boolean') annotations[hint] = value[hint] as boolean;
  }
  return annotations;
}

/** An inputSchema MCP accepts: an object schema (`type: "object"`). */
function inputSchemaFrom(raw: JsonObject, warnings: string[], owner: string): JsonObject | string {
  const schema = raw.inputSchema ?? raw.arguments;
  if (schema === undefined || schema === null) return { type: 'object', properties: {} };
  if (!isObject(schema)) {
    warnings.push(`${owner}: inputSchema must be an object; using an empty one`);
    return { type: 'object', properties: {} };
  }
  if (schema.type === undefined) return { type: 'object', properties: {}, ...schema };
  if (schema.type !== 'object') return 'inputSchema must describe an object (type "object")';
  return schema;
}

export interface NormalizeContext {
  /** The name when the metadata gives none. */
  readonly defaultName: string;
  /** The script path relative to the tools directory. */
  readonly path: string;
  /** Where relative icon paths start (the metadata file's directory). */
  readonly iconBase: string;
  /** Names the source in warnings (a path). */
  readonly owner: string;
}

/**
 * Turns metadata (meta.json merged over an inline header, or a register.json entry) into a
 * registry item, or says why it cannot be one. Unknown keys are dropped; bad optional
 * fields are dropped with a warning.
 */
export function normalizeTool(
  raw: JsonObject,
  context: NormalizeContext,
): { tool?: ToolDefinition; error?: string; warnings: string[] } {
  const warnings: string[] = [];
  const owner = context.owner;
  const name = typeof raw.name === 'string' && raw.name !== '' ? raw.name : context.defaultName;
  const nameProblem = toolNameProblem(name);
  if (nameProblem) return { error: `${owner}: ${nameProblem}`, warnings };
  const inputSchema = inputSchemaFrom(raw, warnings, owner);
  if (typeof inputSchema === 'string') return { error: `${owner}: ${inputSchema}`, warnings };
  const tool: ToolDefinition = {
    name,
    description: typeof raw.description === 'string' ? raw.description : '',
    path: context.path,
    inputSchema,
    timeoutSecs: null,
  };
  if (typeof raw.title === 'string' && raw.title !== '') tool.title = raw.title;
  if (raw.outputSchema !== undefined) {
    if (isObject(raw.outputSchema) && (raw.outputSchema.type === undefined || raw.outputSchema.type === 'object')) {
      tool.outputSchema = { type: 'object', ...raw.outputSchema };
    } else {
      warnings.push(`${owner}: outputSchema must describe an object (type "object"); ignored`);
    }
  }
  if (raw.timeoutSecs !== undefined && raw.timeoutSecs !== null) {
    const timeout = positiveInteger(raw.timeoutSecs);
    if (timeout === undefined) warnings.push(`${owner}: timeoutSecs must be a positive integer; ignored`);
    tool.timeoutSecs = timeout ?? null;
  }
  if (typeof raw.timeoutHint === 'string' && raw.timeoutHint !== '') tool.timeoutHint = raw.timeoutHint;
  if (raw.progressExtendsTimeout === true) tool.progressExtendsTimeout = true;
  const maxTimeout = positiveInteger(raw.maxTimeoutSecs);
  if (maxTimeout !== undefined) tool.maxTimeoutSecs = maxTimeout;
  const icons = resolveIcons(raw.icons, context.iconBase, warnings, owner);
  if (icons) tool.icons = icons;
  const annotations = annotationsFrom(raw.annotations, warnings, owner);
  if (annotations) tool.annotations = annotations;
  if (isObject(raw._meta)) tool._meta = normalizeUiMeta(raw._meta);
  return { tool, warnings };
}
