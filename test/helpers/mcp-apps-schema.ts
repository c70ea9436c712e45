/**
 * The MCP Apps JSON Schema as the official `@modelcontextprotocol/ext-apps` package publishes
 * it (a devDependency for this file only), to check messages and metadata against.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { type SchemaCheck, SchemaValidator } from '../../src/validation/json-schema.js';
import { repoRoot } from './paths.js';

const schema = JSON.parse(
  readFileSync(join(repoRoot, 'node_modules/@modelcontextprotocol/ext-apps/dist/src/generated/schema.json'), 'utf8'),
) as Record<string, unknown>;
const validator = new SchemaValidator();

/** Checks `value` against one definition of the schema (`McpUiToolMeta`, `McpUiInitializeRequest`, ...). */
export function checkMcpApps(definition: string, value: unknown): SchemaCheck {
  return validator.check({ ...schema, $ref: `#/$defs/${definition}` }, value);
}
