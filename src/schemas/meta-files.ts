/**
 * JSON Schemas (2020-12) of the metadata files of a project, used by `mcp-bash validate`.
 * Unknown keys are allowed (1.x projects carry notes such as `_comment`); what a key holds
 * is checked. The rules mirror what discovery accepts.
 */

const iconsSchema = {
  type: 'array',
  items: {
    type: 'object',
    required: ['src'],
    properties: {
      src: { type: 'string', minLength: 1 },
      mimeType: { type: 'string' },
      sizes: { type: 'array', items: { type: 'string' } },
      theme: { enum: ['light', 'dark'] },
    },
  },
} as const;

/** An object schema: `type`, when given, must be "object". */
const objectSchemaSchema = {
  type: 'object',
  properties: {
    type: { const: 'object' },
    properties: { type: 'object' },
    required: { type: 'array', items: { type: 'string' } },
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
          name: { type: 'string', minLength: 1 },
          description: { type: 'string' },
          required: { type: 'boolean' },
        },
      },
    },
  ],
} as const;

const positiveSeconds = { type: ['integer', 'string', 'null'], minimum: 1, pattern: '^[1-9][0-9]*$' } as const;

/** `server.d/server.meta.json` */
export const serverMetaSchema = {
  $schema: 'https://json-schema.org/draft/2020-12/schema',
  title: 'mcp-bash server.d/server.meta.json',
  type: 'object',
  required: ['name'],
  properties: {
    name: { type: 'string', minLength: 1 },
    title: { type: 'string' },
    version: { type: 'string' },
    description: { type: 'string' },
    websiteUrl: { type: 'string' },
    icons: iconsSchema,
  },
} as const;

/** `tools/<dir>/tool.meta.json`, `<name>.meta.json`, an inline `# mcp:` header, or a register.json tool entry. */
export const toolMetaSchema = {
  $schema: 'https://json-schema.org/draft/2020-12/schema',
  title: 'mcp-bash tool metadata',
  type: 'object',
  properties: {
    // MCP 2025-11-25 (SEP-986); validate warns separately about names some clients reject.
    name: { type: 'string', pattern: '^[A-Za-z0-9_.-]{1,128}$' },
    title: { type: 'string' },
    description: { type: 'string' },
    inputSchema: objectSchemaSchema,
    arguments: objectSchemaSchema,
    outputSchema: objectSchemaSchema,
    timeoutSecs: positiveSeconds,
    timeoutHint: { type: 'string' },
    progressExtendsTimeout: { type: 'boolean' },
    maxTimeoutSecs: positiveSeconds,
    icons: iconsSchema,
    annotations: {
      type: 'object',
      properties: {
        title: { type: 'string' },
        readOnlyHint: { type: 'boolean' },
        destructiveHint: { type: 'boolean' },
        idempotentHint: { type: 'boolean' },
        openWorldHint: { type: 'boolean' },
      },
    },
    _meta: { type: 'object' },
  },
} as const;

/** `prompts/**\/<name>.meta.json` (decision D8), or a register.json prompt entry. */
export const promptMetaSchema = {
  $schema: 'https://json-schema.org/draft/2020-12/schema',
  title: 'mcp-bash prompt metadata',
  type: 'object',
  properties: {
    name: { type: 'string', minLength: 1 },
    title: { type: 'string' },
    description: { type: 'string' },
    path: { type: 'string', minLength: 1 },
    arguments: promptArgumentsSchema,
    // Other roles (1.x allowed "system") are sent as "user": validate warns (D61).
    role: { type: 'string' },
    metadata: {},
    icons: iconsSchema,
    _meta: { type: 'object' },
  },
} as const;

/** `resources/**\/<name>.meta.json`: a resource (`uri`) or a resource template (`uriTemplate`). */
export const resourceMetaSchema = {
  $schema: 'https://json-schema.org/draft/2020-12/schema',
  title: 'mcp-bash resource metadata',
  type: 'object',
  properties: {
    name: { type: 'string', minLength: 1 },
    title: { type: 'string' },
    description: { type: 'string' },
    uri: { type: 'string', minLength: 1 },
    uriTemplate: { type: 'string', minLength: 1 },
    mimeType: { type: 'string' },
    provider: { type: 'string', pattern: '^[A-Za-z0-9_-]+$' },
    size: { type: 'integer', minimum: 0 },
    icons: iconsSchema,
    annotations: {
      type: 'object',
      properties: {
        // Other values are dropped with a warning, by the server and by validate (D127).
        audience: { type: 'array', items: { type: 'string' } },
        priority: { type: 'number', minimum: 0, maximum: 1 },
        lastModified: { type: 'string' },
      },
    },
    _meta: { type: 'object' },
  },
} as const;

/** A `completions` entry of register.json. */
export const completionEntrySchema = {
  $schema: 'https://json-schema.org/draft/2020-12/schema',
  title: 'mcp-bash completion registration',
  type: 'object',
  required: ['name', 'path'],
  properties: {
    name: { type: 'string', minLength: 1 },
    path: { type: 'string', minLength: 1 },
    timeoutSecs: positiveSeconds,
  },
} as const;
