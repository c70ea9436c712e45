/** JSON Schema (2020-12) of `server.d/register.json`, version 1. */
export const registerJsonSchema = {
  $schema: 'https://json-schema.org/draft/2020-12/schema',
  title: 'mcp-bash server.d/register.json',
  type: 'object',
  required: ['version'],
  additionalProperties: false,
  properties: {
    version: { const: 1 },
    _meta: { type: ['object', 'null'] },
    tools: { type: ['array', 'null'], items: { type: 'object', required: ['name', 'path'] } },
    resources: { type: ['array', 'null'], items: { type: 'object', required: ['name', 'uri'] } },
    resourceTemplates: { type: ['array', 'null'], items: { type: 'object', required: ['name', 'uriTemplate'] } },
    prompts: { type: ['array', 'null'], items: { type: 'object', required: ['name'] } },
    completions: { type: ['array', 'null'], items: { type: 'object', required: ['name', 'path'] } },
  },
} as const;
