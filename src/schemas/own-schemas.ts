import { callToolResultSchema } from './call-tool-result.js';
import * as metaFiles from './meta-files.js';
import { registerJsonSchema } from './register-json.js';
import * as uiFiles from './ui-files.js';

/** A metadata format's shape, as far as finding its schema goes. */
function schemaOf(value: unknown): object | undefined {
  if (typeof value !== 'object' || value === null || !('schema' in value)) return undefined;
  const { schema } = value as { schema: unknown };
  return typeof schema === 'object' && schema !== null ? schema : undefined;
}

/**
 * Every JSON Schema of our own file formats, by a stable name: the metadata formats, the UI
 * files and template configs, register.json, and the CallToolResult a tool may print. The
 * build precompiles exactly these (`npm run generate`, src/schemas/generated/
 * format-validators.ts), so discovery, `validate` and tool calls never compile a schema of
 * ours at run time.
 */
export function ownSchemas(): Map<string, object> {
  const schemas = new Map<string, object>([
    ['registerJson', registerJsonSchema],
    ['callToolResult', callToolResultSchema],
  ]);
  const modules: Record<string, unknown> = { ...metaFiles, ...uiFiles };
  for (const [name, value] of Object.entries(modules)) {
    const schema = schemaOf(value);
    if (schema) schemas.set(name, schema);
  }
  for (const [name, value] of Object.entries(uiFiles.templateConfigFormats)) {
    const schema = schemaOf(value);
    if (schema) schemas.set(`template_${name.replaceAll('-', '_')}`, schema);
  }
  return schemas;
}
