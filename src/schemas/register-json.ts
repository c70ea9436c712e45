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
    // Entries are checked one by one when they are normalised: a bad entry is skipped with a
    // warning, never failing the file (validate reports it with the entry's own schema).
    tools: { type: ['array', 'null'] },
    resources: { type: ['array', 'null'] },
    resourceTemplates: { type: ['array', 'null'] },
    prompts: { type: ['array', 'null'] },
    completions: { type: ['array', 'null'] },
  },
} as const;
