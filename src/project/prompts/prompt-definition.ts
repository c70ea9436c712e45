import { isObject } from '../../json/objects.js';
import { promptMeta } from '../../schemas/meta-files.js';
import type { Icon, JsonObject } from '../../spec/types.js';
import { screenMetadata } from '../../validation/metadata-check.js';
import { resolveIcons } from '../icons.js';
import type { NormalizeContext } from '../registry/manual-kinds.js';

/** MCP prompt messages have these roles only. */
export type PromptRole = 'user' | 'assistant';

/**
 * A message of a rich prompt (metadata `messages`, D295): MCP's PromptMessage, where a
 * content block may name a file (`path`, relative to the prompts directory once
 * discovered) whose bytes become its text, data or resource contents when the prompt is got.
 */
interface DeclaredMessage {
  role: PromptRole;
  content: JsonObject;
}

/** A prompt as the registry keeps it (`.registry/prompts.json` items). */
export interface PromptDefinition {
  name: string;
  title?: string;
  description: string;
  /** The template, relative to the prompts directory (none: an empty message, unless `messages` or `script`). */
  path?: string;
  /** A rich prompt's messages, rendered with `{{name}}` placeholders (D295). */
  messages?: DeclaredMessage[];
  /** A script printing the prompt's messages, relative to the prompts directory (D295). */
  script?: string;
  /** How long the script may run (default 30 s). */
  timeoutSecs?: number;
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

const isText = (value: unknown): value is string => typeof value === 'string';

/** Why a declared content block (MCP's, or with `path` standing for its content) cannot be used. */
function blockProblem(block: JsonObject): string | undefined {
  const fromFile = isText(block.path);
  switch (block.type) {
    case 'text':
      return isText(block.text) || fromFile ? undefined : 'a text block needs "text" or "path"';
    case 'image':
    case 'audio':
      return fromFile || (isText(block.data) && isText(block.mimeType))
        ? undefined
        : `an ${block.type} block needs "path", or "data" and "mimeType"`;
    case 'resource': {
      const resource = isObject(block.resource) ? block.resource : {};
      if (!isText(resource.uri)) return 'a resource block needs "resource": {"uri": ...}';
      return fromFile || isText(resource.text) || isText(resource.blob)
        ? undefined
        : 'a resource block needs "resource.text", "resource.blob" or "path"';
    }
    case 'resource_link':
      return isText(block.uri) && isText(block.name) ? undefined : 'a resource_link block needs "uri" and "name"';
    default:
      return `content type ${JSON.stringify(block.type)} is not text, image, audio, resource or resource_link`;
  }
}

/** What a prompt is besides a template (D295): its messages or its script, files resolved. */
type PromptContent = Pick<PromptDefinition, 'messages' | 'script' | 'timeoutSecs'>;

/**
 * Finds a file a prompt declares (relative to the prompts directory; undefined when missing
 * or outside where it may read, which `where` names for the error: "inside the project").
 */
export type PromptFileResolver = ((declared: string) => string | undefined) & { readonly where?: string };

/**
 * The `messages` or `script` of prompt metadata, with every file resolved by `resolve`, or
 * why not, with the field. A prompt is one of a template (`path`), messages or a script.
 */
export function promptContent(
  raw: JsonObject,
  role: PromptRole,
  resolve: PromptFileResolver,
): PromptContent | { error: string; field: string } {
  const where = resolve.where ?? 'inside the project';
  const kinds = ['path', 'messages', 'script'].filter((key) => raw[key] !== undefined);
  if (kinds.length > 1)
    return {
      error: `"${kinds.join('" and "')}" cannot be used together: a prompt is a template, messages or a script`,
      field: `/${kinds[1]}`,
    };
  if (isText(raw.script)) {
    const script = resolve(raw.script);
    if (script === undefined) return { error: `its script "${raw.script}" does not exist ${where}`, field: '/script' };
    const timeoutSecs = Number(raw.timeoutSecs ?? 0);
    return { script, ...(timeoutSecs > 0 ? { timeoutSecs } : {}) };
  }
  if (!Array.isArray(raw.messages)) return {};
  const messages: DeclaredMessage[] = [];
  for (const [index, message] of raw.messages.entries()) {
    const field = `/messages/${index}/content`;
    const content = { ...(message as { content: JsonObject }).content };
    const problem = blockProblem(content);
    if (problem) return { error: `messages[${index}]: ${problem}`, field };
    if (isText(content.path)) {
      const found = resolve(content.path);
      if (found === undefined) return { error: `messages[${index}]: "${content.path}" does not exist ${where}`, field };
      content.path = found;
    }
    const own = (message as { role?: PromptRole }).role;
    messages.push({ role: own ?? role, content });
  }
  return { messages };
}

/**
 * Prompt metadata (a meta file or a register.json entry) as a registry item, or why it
 * cannot be one: the prompt metadata format's checks first (schemas/meta-files.ts, as
 * validate reports them), then defaults, the role, rich content (files found by
 * `resolve`) and icons.
 */
export function normalizePrompt(
  metadata: JsonObject,
  context: NormalizeContext,
  resolve: PromptFileResolver = () => undefined,
): { item?: PromptDefinition; error?: string; warnings: string[] } {
  const { owner } = context;
  const screen = screenMetadata(promptMeta, metadata);
  const warnings = screen.warnings.map((warning) => `${owner}: ${warning}`);
  if (!screen.value) return { error: `${owner}: ${screen.rejected}`, warnings };
  const raw = screen.value;
  const name = typeof raw.name === 'string' && raw.name !== '' ? raw.name : context.defaultName;
  if (!name) return { error: `${owner}: a prompt needs a "name"`, warnings };
  // The format rejects arguments argumentsSchema cannot read (the `/arguments` rule).
  const schema = argumentsSchema(raw.arguments) as JsonObject;
  const role = roleFrom(raw.role, warnings, owner);
  const content = promptContent(raw, role, resolve);
  if ('error' in content) return { error: `${owner}: ${content.error}`, warnings };
  const item: PromptDefinition = {
    name,
    description: typeof raw.description === 'string' ? raw.description : '',
    arguments: schema,
    role,
    ...content,
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
