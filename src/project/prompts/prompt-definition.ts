import { isObject } from '../../json/objects.js';
import { promptMeta } from '../../schemas/meta-files.js';
import type { Icon, JsonObject } from '../../spec/types.js';
import { screenMetadata } from '../../validation/metadata-check.js';
import { resolveIcons } from '../icons.js';
import type { NormalizeContext } from '../registry/manual-kinds.js';

/** MCP prompt messages have these roles only. */
type PromptRole = 'user' | 'assistant';

/** A prompt as the registry keeps it (`.registry/prompts.json` items). */
export interface PromptDefinition {
  name: string;
  title?: string;
  description: string;
  /** The template, relative to the prompts directory (none: an empty message). */
  path?: string;
  /** A JSON Schema object: `properties` name the arguments, `required` the mandatory ones. */
  arguments: JsonObject;
  role: PromptRole;
  /** Free-form `metadata` of the meta file (completion scripts see it; clients do not). */
  metadata?: unknown;
  icons?: Icon[];
  _meta?: JsonObject;
}

/**
 * `arguments` as a JSON Schema object. MCP's own list form
 * (`[{name, description?, required?}]`) is accepted too and converted.
 */
export function argumentsSchema(value: unknown): JsonObject | undefined {
  if (value === undefined || value === null) return { type: 'object', properties: {} };
  if (isObject(value)) return value.properties === undefined ? { type: 'object', properties: {}, ...value } : value;
  if (!Array.isArray(value)) return undefined;
  const properties: JsonObject = {};
  const required: string[] = [];
  for (const entry of value) {
    if (!isObject(entry) || typeof entry.name !== 'string' || entry.name === '') return undefined;
    properties[entry.name] = {
      type: 'string',
      ...(typeof entry.description === 'string' ? { description: entry.description } : {}),
    };
    if (entry.required === true) required.push(entry.name);
  }
  return { type: 'object', properties, ...(required.length > 0 ? { required } : {}) };
}

/** `assistant` stays; `user`, nothing, and anything else (1.x allowed `system`) become `user`. */
function roleFrom(value: unknown, warnings: string[], owner: string): PromptRole {
  if (value === 'assistant' || value === 'user' || value === undefined || value === null)
    return value === 'assistant' ? 'assistant' : 'user';
  warnings.push(
    `${owner}: role ${JSON.stringify(value)} is not an MCP role (user or assistant); the message is sent as "user"`,
  );
  return 'user';
}

/**
 * Prompt metadata (a meta file or a register.json entry) as a registry item, or why it
 * cannot be one: the prompt metadata format's checks first (schemas/meta-files.ts, as
 * validate reports them), then defaults, the role and icons.
 */
export function normalizePrompt(
  metadata: JsonObject,
  context: NormalizeContext,
): { item?: PromptDefinition; error?: string; warnings: string[] } {
  const { owner } = context;
  const screen = screenMetadata(promptMeta, metadata);
  const warnings = screen.warnings.map((warning) => `${owner}: ${warning}`);
  if (!screen.value) return { error: `${owner}: ${screen.rejected}; prompt skipped`, warnings };
  const raw = screen.value;
  const name = typeof raw.name === 'string' && raw.name !== '' ? raw.name : context.defaultName;
  if (!name) return { error: `${owner}: a prompt needs a "name"`, warnings };
  // The format rejects arguments argumentsSchema cannot read (the `/arguments` rule).
  const schema = argumentsSchema(raw.arguments) as JsonObject;
  const item: PromptDefinition = {
    name,
    description: typeof raw.description === 'string' ? raw.description : '',
    arguments: schema,
    role: roleFrom(raw.role, warnings, owner),
  };
  if (context.path !== undefined) item.path = context.path;
  if (typeof raw.title === 'string' && raw.title !== '') item.title = raw.title;
  if (raw.metadata !== undefined && raw.metadata !== null) item.metadata = raw.metadata;
  const icons = resolveIcons(raw.icons, context.iconBase, warnings, owner);
  if (icons) item.icons = icons;
  if (isObject(raw._meta)) item._meta = raw._meta;
  return { item, warnings };
}

/** Names of the arguments, with their descriptions and whether they are required. */
export function promptArguments(
  schema: JsonObject,
): Array<{ name: string; title?: string; description: string; required: boolean }> {
  const properties = isObject(schema.properties) ? schema.properties : {};
  const required = new Set(
    Array.isArray(schema.required) ? schema.required.filter((entry): entry is string => typeof entry === 'string') : [],
  );
  return Object.entries(properties).map(([name, property]) => {
    const spec = isObject(property) ? property : {};
    return {
      name,
      ...(typeof spec.title === 'string' && spec.title !== '' ? { title: spec.title } : {}),
      description: typeof spec.description === 'string' ? spec.description : '',
      required: required.has(name),
    };
  });
}
