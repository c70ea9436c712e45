import { isObject } from '../../json/objects.js';
import type { JsonObject } from '../../spec/types.js';
import { ProjectError } from '../project-error.js';

/** `{{name}}` with a name `^[A-Za-z_][A-Za-z0-9_]*$` (decision D9: the only placeholder syntax). */
const PLACEHOLDER = /\{\{([A-Za-z_][A-Za-z0-9_]*)\}\}/g;

/** The arguments the schema declares (its `properties`). */
function declaredNames(schema: JsonObject): Set<string> {
  return new Set(isObject(schema.properties) ? Object.keys(schema.properties) : []);
}

function requiredNames(schema: JsonObject): string[] {
  return Array.isArray(schema.required)
    ? schema.required.filter((name): name is string => typeof name === 'string')
    : [];
}

/**
 * Renders a prompt template: every `{{name}}` whose argument was given is replaced by its
 * value in one pass (a value containing `{{other}}` is not expanded again). A declared
 * optional argument that was not given renders empty (D129); a placeholder the schema does
 * not declare stays as it is (1.x). A required argument that is missing is an error naming
 * it (decision D22). The template is used exactly as read (D23: no newline stripping).
 */
export function renderPrompt(
  promptName: string,
  template: string,
  schema: JsonObject,
  values: ReadonlyMap<string, string>,
): string {
  const missing = requiredNames(schema).filter((name) => !values.has(name));
  if (missing.length > 0) {
    const list = missing.map((name) => `"${name}"`).join(', ');
    throw ProjectError.invalidRequest(
      `Missing required argument${missing.length > 1 ? 's' : ''} ${list} for prompt "${promptName}"`,
      { missing },
    );
  }
  const declared = declaredNames(schema);
  return template.replace(PLACEHOLDER, (match, name: string) => values.get(name) ?? (declared.has(name) ? '' : match));
}
