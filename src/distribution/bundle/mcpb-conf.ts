import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { CliError, ExitCode } from '../../cli/cli-error.js';

/** Every key `mcpb.conf` may set (1.x's list); other keys are ignored with a warning. */
export const MCPB_CONF_KEYS = [
  'MCPB_NAME',
  'MCPB_VERSION',
  'MCPB_DESCRIPTION',
  'MCPB_LONG_DESCRIPTION_FILE',
  'MCPB_AUTHOR_NAME',
  'MCPB_AUTHOR_EMAIL',
  'MCPB_AUTHOR_URL',
  'MCPB_REPOSITORY',
  'MCPB_INCLUDE',
  'MCPB_STATIC',
  'MCPB_LICENSE',
  'MCPB_KEYWORDS',
  'MCPB_HOMEPAGE',
  'MCPB_DOCUMENTATION',
  'MCPB_SUPPORT',
  'MCPB_PRIVACY_POLICIES',
  'MCPB_COMPAT_CLAUDE_DESKTOP',
  'MCPB_RUNTIME_PYTHON',
  'MCPB_RUNTIME_NODE',
  'MCPB_USER_CONFIG_FILE',
  'MCPB_USER_CONFIG_ENV_MAP',
  'MCPB_USER_CONFIG_ARGS_MAP',
] as const;

export type McpbConfKey = (typeof MCPB_CONF_KEYS)[number];

/** The values `mcpb.conf` sets, and what it said that was ignored. */
export interface McpbConf {
  readonly path: string;
  readonly values: ReadonlyMap<McpbConfKey, string>;
  readonly warnings: readonly string[];
}

const KNOWN = new Set<string>(MCPB_CONF_KEYS);
const ASSIGNMENT = /^(?:export\s+)?([A-Za-z_][A-Za-z0-9_]*)=/;
/** Characters a shell reads literally in an unquoted assignment value (no globbing there). */
const BARE = /[A-Za-z0-9_./:@%+,=?*[\]{}#!^-]/;
/** In double quotes a backslash escapes only these (as in sh). */
const DOUBLE_QUOTE_ESCAPES = new Set(['"', '\\', '$', '`']);

/** Why a line needs a shell to evaluate: such a value is refused, never run. */
interface ShellOnly {
  readonly shellOnly: string;
}

const shellOnly = (why: string): ShellOnly => ({ shellOnly: why });
const UNCLOSED = shellOnly('the quote is not closed on this line (values span one line)');

/** One double-quoted segment starting after its opening quote: its text and the index after the closing quote. */
function doubleQuoted(line: string, start: number): { text: string; next: number } | ShellOnly {
  let text = '';
  for (let index = start; index < line.length; index += 1) {
    const char = line[index] as string;
    if (char === '"') return { text, next: index + 1 };
    if (char === '$' || char === '`') return shellOnly(`"${char}" expands only in a shell`);
    if (char === '\\' && index + 1 < line.length && DOUBLE_QUOTE_ESCAPES.has(line[index + 1] as string)) {
      index += 1;
      text += line[index];
    } else {
      text += char;
    }
  }
  return UNCLOSED;
}

/** A value as sh would read it, when sh would only strip quotes; else why it needs a shell. */
function parseValue(line: string, start: number): string | ShellOnly {
  let value = '';
  let index = start;
  while (index < line.length && !/\s/.test(line[index] as string)) {
    const char = line[index] as string;
    if (char === '"') {
      const quoted = doubleQuoted(line, index + 1);
      if ('shellOnly' in quoted) return quoted;
      value += quoted.text;
      index = quoted.next;
    } else if (char === "'") {
      const end = line.indexOf("'", index + 1);
      if (end === -1) return UNCLOSED;
      value += line.slice(index + 1, end);
      index = end + 1;
    } else if (BARE.test(char)) {
      value += char;
      index += 1;
    } else {
      return shellOnly(`"${char}" means something to a shell; quote the value`);
    }
  }
  const rest = line.slice(index).trim();
  if (rest !== '' && !rest.startsWith('#')) return shellOnly(`"${rest}" after the value would run as a command`);
  return value;
}

/**
 * Reads `mcpb.conf` text as `KEY="value"` lines (also `'value'`, bare words, `export KEY=...`,
 * comments and blank lines) without running it. A line only a shell could evaluate
 * (`$VAR`, `$(...)`, backquotes, several words, a multi-line value) is an error naming it.
 */
export function parseMcpbConf(text: string, path: string): McpbConf {
  const values = new Map<McpbConfKey, string>();
  const warnings: string[] = [];
  const lines = text.replace(/^\uFEFF/, '').split(/\r?\n/);
  lines.forEach((raw, offset) => {
    const line = raw.trim();
    if (line === '' || line.startsWith('#')) return;
    const number = offset + 1;
    const match = ASSIGNMENT.exec(line);
    const value = match ? parseValue(line, match[0].length) : shellOnly('it is not a KEY="value" assignment');
    if (typeof value !== 'string') {
      throw new CliError(
        `${path} line ${number} needs a shell to evaluate (${value.shellOnly}): ${line}`,
        ExitCode.Failure,
        'mcp-bash reads mcpb.conf as KEY="value" lines and never runs it: write each value literally, e.g. ' +
          'MCPB_VERSION="1.2.0".',
      );
    }
    const key = (match as RegExpExecArray)[1] as string;
    if (KNOWN.has(key)) values.set(key as McpbConfKey, value);
    else warnings.push(`${path} line ${number}: unknown key ${key}; ignored`);
  });
  return { path, values, warnings };
}

/** `<root>/mcpb.conf`, or an empty configuration when there is none. */
export function readMcpbConf(root: string): McpbConf {
  const path = join(root, 'mcpb.conf');
  if (!existsSync(path)) return { path, values: new Map(), warnings: [] };
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (error) {
    throw new CliError(`cannot read ${path}: ${(error as Error).message}`);
  }
  return parseMcpbConf(text, 'mcpb.conf');
}
