import { isObject } from '../json/objects.js';
import { RawNumber } from '../json/raw-number.js';

/** A key a plain jq path (`.a.b`) can name, and the SDK's fast path reads. */
const NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;
/** A lone UTF-16 surrogate: jq and JavaScript may spell it differently. */
const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;

/**
 * What jq prints for a value with `-r`, when every jq prints the same (a kind and its text):
 * `s` a string (raw), `v` a safe integer or a boolean (verbatim), `z` null, `o` an object
 * (its members are records of their own); `x` anything else, which the SDK leaves to jq.
 */
function record(value: unknown): [kind: string, text: string] {
  if (typeof value === 'string')
    return value.includes('\u0000') || LONE_SURROGATE.test(value) ? ['x', ''] : ['s', value];
  if (typeof value === 'boolean') return ['v', String(value)];
  if (typeof value === 'number' && Number.isSafeInteger(value) && !Object.is(value, -0)) return ['v', String(value)];
  if (value === null) return ['z', 'null'];
  if (isObject(value) && !(value instanceof RawNumber)) return ['o', ''];
  return ['x', ''];
}

/** `%`, newline and tab escaped, so that a record is one line of three tab-separated fields. */
const escapeField = (text: string) => text.replaceAll('%', '%25').replaceAll('\n', '%0A').replaceAll('\t', '%09');

/**
 * The arguments as the SDK reads them without a JSON process (MCP_TOOL_ARGS_FLAT, D298):
 * their JSON text `json` (MCP_TOOL_ARGS_JSON, which has no newline: the SDK uses the form
 * only while the two agree), then one line `<path>\t<kind>\t<text>` for every value
 * reachable through keys that are names (`.a`, `.a.b`), objects included. A path it lacks
 * under an object record is a missing key (jq's `null`); anything else goes to jq.
 * Undefined for arguments that are not an object.
 */
export function flatArguments(args: unknown, json: string): string | undefined {
  // Arguments that are no object: jq errs on `.a`, so every read goes to jq.
  if (!isObject(args)) return undefined;
  const lines: string[] = [json];
  const walk = (value: Record<string, unknown>, prefix: string) => {
    for (const [key, member] of Object.entries(value)) {
      if (!NAME.test(key)) continue;
      const path = `${prefix}.${key}`;
      const [kind, text] = record(member);
      lines.push(`${path}\t${kind}\t${escapeField(text)}`);
      if (kind === 'o') walk(member as Record<string, unknown>, path);
    }
  };
  walk(args, '');
  return `${lines.join('\n')}\n`;
}
