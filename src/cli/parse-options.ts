import minimist from 'minimist';
import { didYouMean } from '../text/did-you-mean.js';
import { UsageError } from './cli-error.js';

/** The flags a command accepts. Value flags are always strings (minimist would turn `0123` into 123). */
export interface OptionSpec {
  readonly string?: readonly string[];
  readonly boolean?: readonly string[];
  readonly alias?: Readonly<Record<string, string>>;
  /** Value flags that may repeat (`--allow a --allow b`); they parse to string arrays. */
  readonly repeatable?: readonly string[];
}

export interface ParsedOptions {
  /** The command line as given (after the command's name). */
  readonly argv: readonly string[];
  /** Positional arguments, including everything after `--`. */
  readonly positionals: string[];
  readonly flags: Readonly<Record<string, unknown>>;
  string(name: string): string | undefined;
  boolean(name: string): boolean;
  list(name: string): string[];
}

function knownFlagNames(spec: OptionSpec): Set<string> {
  const names = new Set<string>([...(spec.string ?? []), ...(spec.boolean ?? []), ...(spec.repeatable ?? [])]);
  for (const [alias, target] of Object.entries(spec.alias ?? {})) {
    names.add(alias);
    names.add(target);
  }
  return names;
}

/**
 * The flags a mistyped one is compared with: the known ones, and for a `--no-...` typo the
 * negated booleans too, since `--no-hello` is how such a flag is written (`--no-helo`).
 */
function suggestible(spec: OptionSpec, known: ReadonlySet<string>, typed: string): string[] {
  const flags = [...known].map((flag) => (flag.length === 1 ? `-${flag}` : `--${flag}`));
  if (!typed.startsWith('--no-')) return flags;
  return [...flags, ...(spec.boolean ?? []).map((flag) => `--no-${flag}`)];
}

function flagName(token: string): string {
  return token.replace(/^--?(no-)?/, '').split('=')[0] ?? '';
}

function isKnown(token: string, known: ReadonlySet<string>): boolean {
  return known.has(flagName(token)) || (token.startsWith('--no-') && known.has(token.slice(5)));
}

/** Whether `token` is one of `spec`'s value flags written without `=VALUE`: the next word is its value. */
export function expectsValue(spec: OptionSpec, token: string): boolean {
  if (token.includes('=')) return false;
  const name = flagName(token);
  return [...(spec.string ?? []), ...(spec.repeatable ?? [])].includes(spec.alias?.[name] ?? name);
}

/** How many option names `spec` has (aliases included): 0 for a command that takes none. */
export function knownOptionCount(spec: OptionSpec): number {
  return knownFlagNames(spec).size;
}

/** Whether `token` (a word starting with `-`) is one of the options `spec` accepts. */
export function acceptsOption(spec: OptionSpec, token: string): boolean {
  return isKnown(token, knownFlagNames(spec));
}

/**
 * Parses a command's arguments, rejecting unknown flags and value flags without a value
 * with a UsageError that carries the usage line.
 */
export function parseOptions(argv: readonly string[], spec: OptionSpec, usage: string): ParsedOptions {
  const known = knownFlagNames(spec);
  const separator = argv.indexOf('--');
  const flagPart = separator === -1 ? argv : argv.slice(0, separator);
  // Value flags are joined with their values (`--args -n` -> `--args=-n`): minimist would
  // read a value that starts with `-` as short flags and leave the value flag empty.
  const normalized: string[] = [];
  for (let index = 0; index < flagPart.length; index += 1) {
    const token = flagPart[index] ?? '';
    normalized.push(token);
    if (!token.startsWith('-') || token === '-') continue;
    if (!isKnown(token, known)) {
      const typed = token.split('=')[0] ?? token;
      throw new UsageError(`unknown option ${token}${didYouMean(typed, suggestible(spec, known, typed))}`, usage);
    }
    if (expectsValue(spec, token)) {
      const next = flagPart[index + 1];
      // `--http --stateless`: the next flag is not this one's value (minimist would make it "").
      if (next === undefined || next.startsWith('--')) throw new UsageError(`option ${token} needs a value`, usage);
      normalized[normalized.length - 1] = `--${flagName(token)}=${next}`;
      index += 1;
    }
  }
  if (separator !== -1) normalized.push(...argv.slice(separator));
  const parsed = minimist(normalized, {
    string: [...(spec.string ?? []), ...(spec.repeatable ?? [])],
    boolean: [...(spec.boolean ?? [])],
    alias: { ...(spec.alias ?? {}) },
    '--': true,
  });
  const positionals = [...parsed._.map(String), ...((parsed['--'] as string[] | undefined) ?? [])];
  const flags: Record<string, unknown> = { ...parsed };
  delete flags._;
  delete flags['--'];
  const asList = (value: unknown): string[] =>
    value === undefined ? [] : Array.isArray(value) ? value.map(String) : [String(value)];
  return {
    argv,
    positionals,
    flags,
    string(name) {
      const value = flags[name];
      if (Array.isArray(value)) return value.length > 0 ? String(value[value.length - 1]) : undefined;
      return typeof value === 'string' ? value : undefined;
    },
    boolean: (name) => flags[name] === true,
    list: (name) => asList(flags[name]),
  };
}

/** A positional argument of a command: its name, and the usage error when a required one is missing. */
interface Positional {
  readonly name: string;
  /** Set for a required argument: the message when it is missing. */
  readonly missing?: string;
}

/** What a command (or subcommand) declares of its command line. */
export interface CommandLineSpec {
  readonly usage: string;
  readonly options: OptionSpec;
  /** Its positional arguments in order; none when absent. */
  readonly positionals?: readonly Positional[];
}

/**
 * A command's arguments parsed once, for every command alike: an unknown flag, a value flag
 * without its value, a missing required positional or one more than it takes is a UsageError
 * with its usage line.
 */
export function parseCommandLine(argv: readonly string[], spec: CommandLineSpec): ParsedOptions {
  const parsed = parseOptions(argv, spec.options, spec.usage);
  const expected = spec.positionals ?? [];
  for (const [index, positional] of expected.entries()) {
    if (positional.missing && parsed.positionals[index] === undefined)
      throw new UsageError(positional.missing, spec.usage);
  }
  const extra = parsed.positionals[expected.length];
  if (extra !== undefined) throw new UsageError(`unexpected argument "${extra}"`, spec.usage);
  return parsed;
}

/** True when the arguments ask for help (`--help` or `-h` before any `--`). */
export function wantsHelp(argv: readonly string[]): boolean {
  for (const token of argv) {
    if (token === '--') return false;
    if (token === '--help' || token === '-h') return true;
  }
  return false;
}
