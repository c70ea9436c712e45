import { classifyContent, mimeFromPath } from '../../content/mime.js';
import { isObject } from '../../json/objects.js';
import type { ContentBlock, JsonObject, PromptMessage } from '../../spec/types.js';
import { ProjectError } from '../project-error.js';
import type { PromptDefinition } from './prompt-definition.js';

/** `{{name}}` with a name `^[A-Za-z_][A-Za-z0-9_]*$` (decision D9: the only placeholder syntax). */
const PLACEHOLDER = /\{\{([A-Za-z_][A-Za-z0-9_]*)\}\}/g;

/** The names of the placeholders `text` holds, each once, in order (what rendering fills in). */
export function placeholderNames(text: string): string[] {
  return [...new Set([...text.matchAll(PLACEHOLDER)].map((match) => match[1] as string))];
}

/** The arguments the schema declares (its `properties`). */
export function declaredNames(schema: JsonObject): Set<string> {
  return new Set(isObject(schema.properties) ? Object.keys(schema.properties) : []);
}

function requiredNames(schema: JsonObject): string[] {
  return Array.isArray(schema.required)
    ? schema.required.filter((name): name is string => typeof name === 'string')
    : [];
}

/** A required argument that was not given is an error naming it (decision D22). */
export function checkRequired(promptName: string, schema: JsonObject, values: ReadonlyMap<string, string>): void {
  const missing = requiredNames(schema).filter((name) => !values.has(name));
  if (missing.length === 0) return;
  const list = missing.map((name) => `"${name}"`).join(', ');
  throw ProjectError.invalidRequest(
    `Missing required argument${missing.length > 1 ? 's' : ''} ${list} for prompt "${promptName}"`,
    { missing },
  );
}

/**
 * `template` with every `{{name}}` whose argument was given replaced by its value in one
 * pass (a value containing `{{other}}` is not expanded again). A declared optional argument
 * that was not given renders empty (D129); a placeholder the schema does not declare stays
 * as it is (1.x).
 */
function fill(template: string, schema: JsonObject, values: ReadonlyMap<string, string>): string {
  const declared = declaredNames(schema);
  return template.replace(PLACEHOLDER, (match, name: string) => values.get(name) ?? (declared.has(name) ? '' : match));
}

/**
 * Renders a prompt template (D9, D22): the placeholders filled in, a missing required
 * argument refused. The template is used exactly as read (D23: no newline stripping).
 */
export function renderPrompt(
  promptName: string,
  template: string,
  schema: JsonObject,
  values: ReadonlyMap<string, string>,
): string {
  checkRequired(promptName, schema, values);
  return fill(template, schema, values);
}

/** The strings of a content block that take placeholders (D295); data, MIME types and paths never do. */
const FILLED = ['text', 'uri', 'name', 'title', 'description'] as const;

/** The strings of a declared block (and of its resource) that placeholders are filled in (validate checks them). */
export function placeholderStrings(block: JsonObject): string[] {
  const resource = isObject(block.resource) ? block.resource : {};
  return [block, resource].flatMap((object) =>
    FILLED.map((key) => object[key]).filter((value): value is string => typeof value === 'string'),
  );
}

/**
 * A rich prompt's messages (D295) as MCP sends them: placeholders filled in (as in
 * templates), and each block's `path` replaced by the file (`read`, relative to the prompts
 * directory): a text block's template, an image's or audio's base64 data, or a resource's
 * text or blob. MIME types not given follow from the file.
 */
export function renderMessages(
  prompt: PromptDefinition,
  values: ReadonlyMap<string, string>,
  read: (rel: string) => Buffer,
): PromptMessage[] {
  checkRequired(prompt.name, prompt.arguments, values);
  const template = (text: string) => fill(text, prompt.arguments, values);
  const filled = (object: JsonObject): JsonObject => {
    const copy = { ...object };
    for (const key of FILLED) if (typeof copy[key] === 'string') copy[key] = template(copy[key]);
    return copy;
  };
  return (prompt.messages ?? []).map(({ role, content: { path, ...declared } }) => {
    const block = filled(declared);
    if (block.type === 'resource') block.resource = filled(block.resource as JsonObject);
    if (typeof path === 'string') fromFile(block, path, read(path), template);
    return { role, content: block as unknown as ContentBlock };
  });
}

/** Puts a file's bytes where the block's type carries content. */
function fromFile(block: JsonObject, path: string, bytes: Buffer, template: (text: string) => string): void {
  if (block.type === 'text') block.text = template(bytes.toString('utf8'));
  else if (block.type === 'image' || block.type === 'audio') {
    block.data = bytes.toString('base64');
    block.mimeType ??= mimeFromPath(path) ?? 'application/octet-stream';
  } else if (block.type === 'resource') {
    const resource = block.resource as JsonObject;
    const { text: _text, blob: _blob, ...rest } = resource;
    const { mimeType, binary } = classifyContent(
      bytes,
      typeof rest.mimeType === 'string' ? rest.mimeType : undefined,
      path,
    );
    block.resource = {
      ...rest,
      mimeType,
      ...(binary ? { blob: bytes.toString('base64') } : { text: bytes.toString('utf8') }),
    };
  }
}
