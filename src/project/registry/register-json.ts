import { registerJsonSchema } from '../../schemas/register-json.js';
import { describeIssues, SchemaValidator } from '../../validation/json-schema.js';
import { MANUAL_KINDS, type RawRegistrations } from './manual-kinds.js';

const strictUtf8 = new TextDecoder('utf-8', { fatal: true });
const validator = new SchemaValidator();

/**
 * Parses `server.d/register.json` strictly: UTF-8 without a BOM, plain JSON (no comments),
 * within the size cap, matching the version-1 schema (no unknown keys; each kind an array
 * or null). Returns the raw entries per kind, or why the file is invalid.
 */
export function parseRegisterJson(
  bytes: Buffer,
  maxBytes: number,
): { ok: true; kinds: RawRegistrations } | { ok: false; reason: string } {
  if (bytes.length > maxBytes) {
    return { ok: false, reason: `it is ${bytes.length} bytes, over MCPBASH_MAX_MANUAL_REGISTRY_BYTES (${maxBytes})` };
  }
  if (bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf) {
    return { ok: false, reason: 'it starts with a UTF-8 byte order mark; save it as UTF-8 without BOM' };
  }
  let text: string;
  try {
    text = strictUtf8.decode(bytes);
  } catch {
    return { ok: false, reason: 'it is not valid UTF-8' };
  }
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    return {
      ok: false,
      reason: `it is not valid JSON (${(error as Error).message}); comments and trailing commas are not allowed`,
    };
  }
  const check = validator.check(registerJsonSchema, value);
  if (check.valid !== true) {
    const detail = check.valid === false ? describeIssues(check.issues) : check.reason;
    return { ok: false, reason: `it does not match the register.json format: ${detail}` };
  }
  const object = value as Record<string, unknown>;
  const kinds: RawRegistrations = {};
  for (const kind of MANUAL_KINDS) {
    if (kind in object) kinds[kind] = object[kind] as unknown[] | null;
  }
  return { ok: true, kinds };
}
