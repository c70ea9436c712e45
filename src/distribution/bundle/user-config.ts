import { CliError, ExitCode } from '../../cli/cli-error.js';
import { isObject } from '../../json/objects.js';
import type { JsonObject } from '../../spec/types.js';

/** The user_config of a bundle with the maps that hand its values to the server. */
export interface UserConfigPlan {
  readonly userConfig: JsonObject | undefined;
  /** [user_config key, environment variable] pairs, in the order given. */
  readonly envMap: ReadonlyArray<readonly [string, string]>;
  /** user_config keys passed as command-line arguments, in order. */
  readonly argsKeys: readonly string[];
  readonly warnings: readonly string[];
}

/** What the resolver found, before checking. */
export interface UserConfigInput {
  readonly userConfig: unknown;
  /** Where userConfig came from, for messages. */
  readonly source: string;
  /** `key=ENV,...` text or a `{key: ENV}` object. */
  readonly envMap: unknown;
  /** `key,...` text or a list of keys. */
  readonly argsMap: unknown;
}

const TYPES = new Set(['string', 'number', 'boolean', 'directory', 'file']);
const FIELDS = new Set(['type', 'title', 'description', 'required', 'default', 'multiple', 'sensitive', 'min', 'max']);
const ENV_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;

function checkDefault(where: string, entry: JsonObject, problems: string[]): void {
  const value = entry.default;
  if (value === undefined) return;
  const type = entry.type;
  const fail = (what: string) => problems.push(`${where}: default must be ${what}`);
  if (type === 'string' && typeof value !== 'string') fail('a string');
  if (type === 'boolean' && typeof value !== 'boolean') fail('true or false');
  if (type === 'number') {
    if (typeof value !== 'number' || !Number.isFinite(value)) fail('a number');
    else if (typeof entry.min === 'number' && value < entry.min) fail(`at least min (${entry.min})`);
    else if (typeof entry.max === 'number' && value > entry.max) fail(`at most max (${entry.max})`);
  }
  if (type === 'directory' || type === 'file') {
    const list = Array.isArray(value) && value.every((item) => typeof item === 'string');
    if (entry.multiple === true ? !list && typeof value !== 'string' : typeof value !== 'string')
      fail(entry.multiple === true ? 'a path or a list of paths' : 'a path (a string)');
  }
}

/** The problems of one user_config entry (MCPB 0.3's rules plus 1.x's). */
function checkEntry(key: string, entry: unknown, problems: string[]): void {
  const where = `user_config.${key}`;
  if (key === '' || /[=,}\s]/.test(key))
    problems.push(`${where}: a key must not be empty or contain "=", ",", "}" or spaces`);
  if (!isObject(entry)) {
    problems.push(`${where}: must be an object`);
    return;
  }
  for (const field of Object.keys(entry)) {
    if (!FIELDS.has(field)) problems.push(`${where}: unknown field "${field}" (MCPB allows ${[...FIELDS].join(', ')})`);
  }
  if (typeof entry.type !== 'string' || !TYPES.has(entry.type))
    problems.push(`${where}: type must be one of ${[...TYPES].join(', ')}`);
  if (typeof entry.title !== 'string' || entry.title.trim() === '') problems.push(`${where}: needs a title`);
  if (typeof entry.description !== 'string') problems.push(`${where}: needs a description (MCPB requires one)`);
  for (const flag of ['required', 'sensitive', 'multiple'] as const) {
    if (entry[flag] !== undefined && typeof entry[flag] !== 'boolean')
      problems.push(`${where}: ${flag} must be true or false`);
  }
  if (entry.sensitive !== undefined && entry.type !== 'string')
    problems.push(`${where}: sensitive is only for type string`);
  if (entry.multiple !== undefined && entry.type !== 'directory' && entry.type !== 'file')
    problems.push(`${where}: multiple is only for type directory or file`);
  for (const bound of ['min', 'max'] as const) {
    if (entry[bound] === undefined) continue;
    if (entry.type !== 'number') problems.push(`${where}: ${bound} is only for type number`);
    else if (typeof entry[bound] !== 'number') problems.push(`${where}: ${bound} must be a number`);
  }
  if (typeof entry.min === 'number' && typeof entry.max === 'number' && entry.min > entry.max)
    problems.push(`${where}: min is greater than max`);
  checkDefault(where, entry, problems);
}

/** `a, b,,c` -> ['a', 'b', 'c']: the comma lists of mcpb.conf. */
function commaList(text: string): string[] {
  return text
    .split(',')
    .map((item) => item.trim())
    .filter((item) => item !== '');
}

function envPairs(value: unknown, problems: string[]): Array<[string, string]> {
  if (value === undefined) return [];
  if (isObject(value)) return Object.entries(value).map(([key, name]) => [key, String(name)]);
  if (typeof value !== 'string') {
    problems.push('the user_config env map must be "key=ENV_NAME,..." or an object');
    return [];
  }
  return commaList(value).map((item) => {
    const at = item.indexOf('=');
    if (at <= 0) problems.push(`env map entry "${item}" is not key=ENV_NAME`);
    return [item.slice(0, Math.max(at, 0)).trim(), item.slice(at + 1).trim()];
  });
}

function argKeys(value: unknown, problems: string[]): string[] {
  if (value === undefined) return [];
  if (Array.isArray(value)) return value.map(String);
  if (typeof value !== 'string') {
    problems.push('the user_config args map must be "key,..." or a list of keys');
    return [];
  }
  return commaList(value);
}

function checkEnvMap(pairs: Array<[string, string]>, keys: Set<string>, problems: string[], warnings: string[]): void {
  const seen = new Set<string>();
  for (const [key, name] of pairs) {
    if (key === '') continue;
    if (!keys.has(key)) problems.push(`env map: "${key}" is not a user_config key`);
    if (!ENV_NAME.test(name)) problems.push(`env map: "${name}" (for ${key}) is not a valid environment variable name`);
    else if (seen.has(name)) problems.push(`env map: ${name} is the target of more than one key`);
    seen.add(name);
    if (name.startsWith('MCPBASH_')) warnings.push(`env map: ${key} sets ${name}, which configures mcp-bash itself`);
  }
}

/**
 * Checks user_config and its env/args maps; every problem is collected, then reported
 * together as one error (exit 1): a bundle with a broken user_config is never written.
 */
export function planUserConfig(input: UserConfigInput): UserConfigPlan {
  const problems: string[] = [];
  const warnings: string[] = [];
  const config = input.userConfig;
  if (config !== undefined && !isObject(config)) problems.push('user_config must be an object of entries');
  const entries = isObject(config) ? config : {};
  for (const [key, entry] of Object.entries(entries)) checkEntry(key, entry, problems);
  const keys = new Set(Object.keys(entries));
  const envMap = envPairs(input.envMap, problems);
  checkEnvMap(envMap, keys, problems, warnings);
  const argsKeys = argKeys(input.argsMap, problems);
  for (const key of argsKeys) if (!keys.has(key)) problems.push(`args map: "${key}" is not a user_config key`);
  if (problems.length > 0) {
    throw new CliError(
      `user_config (${input.source}) is not valid:\n${problems.map((problem) => `  - ${problem}`).join('\n')}`,
      ExitCode.Failure,
      'See docs/BUNDLES.md for the user_config rules and examples.',
    );
  }
  return { userConfig: isObject(config) ? config : undefined, envMap, argsKeys, warnings };
}
