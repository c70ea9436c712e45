import { contentBlock } from './call-tool-result.js';

/**
 * JSON Schema (2020-12) of the messages a prompt script prints (D295): MCP PromptMessages,
 * checked as strictly as clients check them before they are sent.
 */
export const promptMessagesSchema = {
  $schema: 'https://json-schema.org/draft/2020-12/schema',
  title: 'MCP prompt messages',
  type: 'array',
  minItems: 1,
  items: {
    type: 'object',
    required: ['role', 'content'],
    properties: { role: { enum: ['user', 'assistant'] }, content: contentBlock },
  },
};
