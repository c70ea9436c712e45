/**
 * JSON Schema (2020-12) of an MCP CallToolResult (protocol 2025-11-25, compatible with the
 * earlier versions we speak), as strict as clients are: a tool that prints a result of its
 * own is checked against it before it is passed through (D268). Extra members are allowed,
 * as in the protocol's schema.
 */

const meta = { type: 'object' } as const;

const annotations = {
  type: 'object',
  properties: {
    audience: { type: 'array', items: { enum: ['user', 'assistant'] } },
    priority: { type: 'number', minimum: 0, maximum: 1 },
    lastModified: { type: 'string' },
  },
} as const;

const icons = {
  type: 'array',
  items: {
    type: 'object',
    required: ['src'],
    properties: { src: { type: 'string' }, mimeType: { type: 'string' }, sizes: { type: 'array' } },
  },
} as const;

const resourceContents = {
  type: 'object',
  required: ['uri'],
  properties: { uri: { type: 'string' }, mimeType: { type: 'string' }, _meta: meta },
  // Text or binary (the protocol's union: an object with both matches too).
  anyOf: [
    { required: ['text'], properties: { text: { type: 'string' } } },
    { required: ['blob'], properties: { blob: { type: 'string' } } },
  ],
} as const;

/** The members each kind of content block needs, by its `type`. */
const blockKinds = {
  text: { required: ['text'], properties: { text: { type: 'string' } } },
  image: { required: ['data', 'mimeType'], properties: { data: { type: 'string' }, mimeType: { type: 'string' } } },
  audio: { required: ['data', 'mimeType'], properties: { data: { type: 'string' }, mimeType: { type: 'string' } } },
  resource_link: {
    required: ['uri', 'name'],
    properties: {
      uri: { type: 'string' },
      name: { type: 'string' },
      title: { type: 'string' },
      description: { type: 'string' },
      mimeType: { type: 'string' },
      size: { type: 'number' },
      icons,
    },
  },
  resource: { required: ['resource'], properties: { resource: resourceContents } },
} as const;

/** A content block of any type (tool results and prompt messages share them). */
export const contentBlock = {
  type: 'object',
  required: ['type'],
  properties: { type: { enum: Object.keys(blockKinds) }, annotations, _meta: meta },
  allOf: Object.entries(blockKinds).map(([kind, then]) => ({ if: { properties: { type: { const: kind } } }, then })),
};

export const callToolResultSchema = {
  $schema: 'https://json-schema.org/draft/2020-12/schema',
  title: 'MCP CallToolResult',
  type: 'object',
  required: ['content'],
  properties: {
    content: { type: 'array', items: contentBlock },
    structuredContent: { type: 'object' },
    isError: { type: 'boolean' },
    _meta: meta,
  },
};
