import { isObject } from '../json/objects.js';
import { callToolResultSchema } from './call-tool-result.js';
import * as metaFiles from './meta-files.js';
import { promptMessagesSchema } from './prompt-messages.js';
import { registerJsonSchema } from './register-json.js';
import * as uiFiles from './ui-files.js';

/**
 * Every JSON Schema of our own file formats, by a stable name: the metadata formats, the UI
 * files and template configs, register.json, the CallToolResult a tool may print and the
 * messages a prompt script prints. The build precompiles exactly these (`npm run generate`, src/schemas/generated/
 * format-validators.ts), so discovery, `validate` and tool calls never compile a schema of
 * ours at run time.
 */
export function ownSchemas(): Map<string, object> {
  const templates = Object.entries(uiFiles.templateConfigFormats).map(([name, format]): [string, unknown] => [
    `template_${name.replaceAll('-', '_')}`,
    format,
  ]);
  const schemas = new Map<string, object>([
    ['registerJson', registerJsonSchema],
    ['callToolResult', callToolResultSchema],
    ['promptMessages', promptMessagesSchema],
  ]);
  const formats: Array<[string, unknown]> = [...Object.entries({ ...metaFiles, ...uiFiles }), ...templates];
  for (const [name, value] of formats) if (isObject(value) && isObject(value.schema)) schemas.set(name, value.schema);
  return schemas;
}
