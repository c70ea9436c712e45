/**
 * The metadata files of a project, one definition each: a JSON Schema (2020-12) that both
 * `mcp-bash validate` and the server's discovery check (validation/metadata-check.ts), and
 * how bad a problem is. A problem where `rejectAt` points makes the entry unusable: the
 * server skips it (with a warning) and validate reports an error. Anywhere else the server
 * ignores the invalid value (1.x's leniency: a warning, the default applies) and validate
 * reports a warning. Unknown keys are allowed (1.x projects carry notes such as `_comment`).
 */

/** One file format: its schema, where problems reject the entry, and the server's words for some. */
export interface MetaFormat {
  readonly schema: Readonly<Record<string, unknown>>;
  /**
   * JSON Pointers (`/name`) where a problem rejects the entry, optionally for one keyword
   * only (`/name pattern`); a problem at or under such a pointer rejects. A missing required
   * field (a problem at the root) always rejects.
   */
  readonly rejectAt: readonly string[];
  /** Problems at these pointers drop the whole field, not just the part that is wrong (schemas). */
  readonly dropWhole?: readonly string[];
  /** The server's sentence for a problem at a pointer, given the offending value. */
  readonly sentences?: Readonly<Record<string, (value: unknown) => string>>;
}

/** A tool's name (MCP 2025-11-25, SEP-986): 1-128 ASCII letters, digits, `_`, `-` and `.`. */
export const TOOL_NAME_PATTERN = /^[A-Za-z0-9_.-]{1,128}$/;

/**
 * A provider name is the file name of its script (`providers/<name>.sh`), never a path:
 * letters, digits, `_`, `-` and `.`, starting with a letter or digit, without `..`.
 */
export const PROVIDER_NAME_PATTERN = /^(?!.*\.\.)[A-Za-z0-9][A-Za-z0-9_.-]{0,63}$/;

/** An object schema (2020-12) of one of our formats. */
function objectSchema(title: string, properties: object, required?: readonly string[]): Record<string, unknown> {
  return {
    $schema: 'https://json-schema.org/draft/2020-12/schema',
    title: `mcp-bash ${title}`,
    type: 'object',
    ...(required ? { required } : {}),
    properties,
  };
}

const text = { type: 'string' } as const;
const nonEmpty = { type: 'string', minLength: 1 } as const;

const iconsSchema = {
  type: 'array',
  items: {
    type: 'object',
    required: ['src'],
    properties: {
      src: nonEmpty,
      mimeType: text,
      sizes: { type: 'array', items: text },
      theme: { enum: ['light', 'dark'] },
    },
  },
} as const;

/** What every format with `icons` says when they are not a list. */
const iconsSentence = { '/icons': () => 'icons must be an array' } as const;

/** An object schema: `type`, when given, must be "object". */
const objectSchemaSchema = {
  type: 'object',
  properties: {
    type: { const: 'object' },
    properties: { type: 'object' },
    required: { type: 'array', items: text },
  },
} as const;

/** Prompt arguments: a JSON Schema object, or MCP's own list form (`[{name, description?, required?}]`). */
const promptArgumentsSchema = {
  anyOf: [
    objectSchemaSchema,
    {
      type: 'array',
      items: {
        type: 'object',
        required: ['name'],
        properties: {
          name: nonEmpty,
          description: text,
          required: { type: 'boolean' },
        },
      },
    },
  ],
} as const;

/** Seconds as a positive integer (1.x wrote them as strings too); null means unset. */
const positiveSeconds = { type: ['integer', 'string', 'null'], minimum: 1, pattern: '^[1-9][0-9]*$' } as const;
const positiveSecondsSentence = (field: string) => () => `${field} must be a positive integer`;

const toolProperties = {
  name: { type: 'string', pattern: TOOL_NAME_PATTERN.source },
  title: text,
  description: text,
  inputSchema: objectSchemaSchema,
  arguments: objectSchemaSchema,
  outputSchema: objectSchemaSchema,
  timeoutSecs: positiveSeconds,
  timeoutHint: text,
  progressExtendsTimeout: { type: 'boolean' },
  maxTimeoutSecs: positiveSeconds,
  icons: iconsSchema,
  annotations: {
    type: 'object',
    properties: {
      title: text,
      readOnlyHint: { type: 'boolean' },
      destructiveHint: { type: 'boolean' },
      idempotentHint: { type: 'boolean' },
      openWorldHint: { type: 'boolean' },
    },
  },
  _meta: { type: 'object' },
} as const;

const toolRules = {
  // A name MCP does not allow, or a schema that does not describe an object: no tool.
  rejectAt: ['/name pattern', '/inputSchema/type', '/arguments/type'],
  dropWhole: ['/inputSchema', '/arguments', '/outputSchema'],
  sentences: {
    '/name': (value: unknown) =>
      typeof value === 'string'
        ? `tool name "${value}" is invalid: MCP allows 1-128 letters, digits, '_', '-' and '.'`
        : 'name must be a string',
    '/inputSchema': () => 'inputSchema must be an object',
    '/inputSchema/type': () => 'inputSchema must describe an object (type "object")',
    '/arguments/type': () => 'inputSchema must describe an object (type "object")',
    '/outputSchema': () => 'outputSchema must describe an object (type "object")',
    '/timeoutSecs': positiveSecondsSentence('timeoutSecs'),
    '/maxTimeoutSecs': positiveSecondsSentence('maxTimeoutSecs'),
    '/annotations': () => 'annotations must be an object',
    ...iconsSentence,
  },
} as const;

/** `tools/<dir>/tool.meta.json`, `<name>.meta.json`, or an inline `# mcp:` header. */
export const toolMeta: MetaFormat = {
  schema: objectSchema('tool metadata', toolProperties),
  ...toolRules,
};

/** A `tools` entry of register.json: tool metadata plus the script's `path` (relative to the tools directory). */
export const toolRegistration: MetaFormat = {
  schema: objectSchema('tool registration', { ...toolProperties, path: nonEmpty }, ['name', 'path']),
  ...toolRules,
  rejectAt: [...toolRules.rejectAt, '/path'],
};

/**
 * A rich prompt's messages (D295): MCP's PromptMessage shape, where `path` may stand for a
 * block's content. What each content type needs is checked with the files
 * (project/prompts/prompt-definition.ts), so the error names what is missing.
 */
const promptMessagesSchema = {
  type: 'array',
  minItems: 1,
  items: {
    type: 'object',
    required: ['content'],
    properties: {
      role: { enum: ['user', 'assistant'] },
      content: {
        type: 'object',
        required: ['type'],
        properties: { type: text, text, path: nonEmpty, data: text, mimeType: text, uri: text, name: text },
      },
    },
  },
} as const;

/** `prompts/**\/<name>.meta.json` (decision D8), or a register.json prompt entry. */
export const promptMeta: MetaFormat = {
  schema: objectSchema('prompt metadata', {
    name: nonEmpty,
    title: text,
    description: text,
    path: nonEmpty,
    messages: promptMessagesSchema,
    script: nonEmpty,
    timeoutSecs: positiveSeconds,
    arguments: promptArgumentsSchema,
    // Other roles (1.x allowed "system") are sent as "user": a warning of their own (D61).
    role: text,
    metadata: {},
    icons: iconsSchema,
    _meta: { type: 'object' },
  }),
  rejectAt: ['/arguments', '/messages', '/script'],
  sentences: {
    '/arguments': () => 'arguments must be a JSON Schema object (or a list of {name, description, required})',
    '/messages': () => 'messages must be a non-empty list of {"role", "content"}',
    '/timeoutSecs': positiveSecondsSentence('timeoutSecs'),
    ...iconsSentence,
  },
};

/** `resources/**\/<name>.meta.json`: a resource (`uri`) or a resource template (`uriTemplate`). */
export const resourceMeta: MetaFormat = {
  schema: objectSchema('resource metadata', {
    name: nonEmpty,
    title: text,
    description: text,
    uri: nonEmpty,
    uriTemplate: nonEmpty,
    mimeType: text,
    // Empty or null: the provider follows from the URI's scheme.
    provider: { type: ['string', 'null'], pattern: `^$|${PROVIDER_NAME_PATTERN.source}` },
    size: { type: 'integer', minimum: 0 },
    icons: iconsSchema,
    annotations: {
      type: 'object',
      properties: {
        // Values other than "user" and "assistant" are dropped with a warning of their own (D127).
        audience: { type: 'array', items: text },
        priority: { type: 'number', minimum: 0, maximum: 1 },
        lastModified: text,
      },
    },
    _meta: { type: 'object' },
  }),
  rejectAt: ['/provider'],
  sentences: {
    '/provider': (value) =>
      `provider ${JSON.stringify(value)} is not a provider name (the file name of providers/<name>.sh)`,
    '/annotations': () => 'annotations must be an object',
    '/annotations/priority': () => 'annotations.priority must be a number from 0 to 1',
    ...iconsSentence,
  },
};

/** A `completions` entry of register.json. */
export const completionRegistration: MetaFormat = {
  schema: objectSchema('completion registration', { name: nonEmpty, path: nonEmpty, timeoutSecs: positiveSeconds }, [
    'name',
    'path',
  ]),
  rejectAt: ['/name', '/path'],
  sentences: { '/timeoutSecs': positiveSecondsSentence('timeoutSecs') },
};

/** `server.d/server.meta.json`: without a `name` validate fails (1.x); the server names itself after the directory. */
export const serverMeta: MetaFormat = {
  schema: objectSchema(
    'server.d/server.meta.json',
    { name: nonEmpty, title: text, version: text, description: text, websiteUrl: text, icons: iconsSchema },
    ['name'],
  ),
  rejectAt: [],
};

/** server.meta.json as the server reads it: the same format, but without a name it is named after its directory. */
export const servedServerMeta: MetaFormat = { ...serverMeta, schema: { ...serverMeta.schema, required: [] } };

/** A format whose every problem rejects the document (our own files, such as register.json). */
export function strictFormat(schema: Readonly<Record<string, unknown>>): MetaFormat {
  return { schema, rejectAt: [''] };
}
