import type { AnySetting, Parsed, Read, Section, Setting, ShellSetting } from './setting.js';

interface Common<T> {
  readonly usedBy: Setting<T>['usedBy'];
  readonly doc: string;
  readonly defaultDoc?: string;
}

interface Bounds {
  readonly min?: number;
  /** Values above are capped (and warned about); values below `min` mean the default. */
  readonly max?: number;
}

/** A row before its table is known: `inSection` names it. */
type Row<T, S = Setting<T>> = Omit<S, 'section'>;

/** The rows of one ENV.md table. */
export function inSection<const R extends Record<string, Omit<AnySetting, 'section'>>>(
  section: Section,
  rows: R,
): { readonly [N in keyof R]: R[N] & { readonly section: Section } } {
  return Object.fromEntries(Object.entries(rows).map(([name, row]) => [name, { ...row, section }])) as never;
}

const TRUE_WORDS = new Set(['1', 'true', 'yes', 'on']);
const FALSE_WORDS = new Set(['0', 'false', 'no', 'off']);

/** `true/1/yes/on` or `false/0/no/off` (any case, around spaces), else undefined. */
export function booleanWord(value: string | undefined): boolean | undefined {
  const word = value?.trim().toLowerCase();
  if (word !== undefined && TRUE_WORDS.has(word)) return true;
  if (word !== undefined && FALSE_WORDS.has(word)) return false;
  return undefined;
}

function rejected<T>(raw: string, why: string, fallback: T): Parsed<T> {
  return { value: fallback, problem: `${JSON.stringify(raw)} ${why}; using ${JSON.stringify(fallback)}` };
}

function bounded(raw: string, value: number, fallback: number, bounds: Bounds): Parsed<number> {
  if (bounds.min !== undefined && value < bounds.min) return rejected(raw, `is below ${bounds.min}`, fallback);
  if (bounds.max !== undefined && value > bounds.max) return rejected(raw, `is above ${bounds.max}`, bounds.max);
  return { value };
}

type Default<T> = { readonly default: T | ((read: Read) => T) };

/** A number setting whose text must match `pattern` (else `notA`), then within its bounds. */
function numeric(
  spec: Common<number> & Bounds & Default<number>,
  kind: 'int' | 'number',
  pattern: RegExp,
  notA: string,
): Row<number> {
  return {
    ...spec,
    kind,
    defaultValue: spec.default,
    parse(raw, fallback) {
      const text = raw.trim();
      if (!pattern.test(text)) return rejected(raw, notA, fallback);
      return bounded(raw, Number(text), fallback, spec);
    },
  };
}

/** A decimal integer. */
export function int(spec: Common<number> & Bounds & Default<number>): Row<number> {
  return numeric(spec, 'int', /^-?\d+$/, 'is not a whole number');
}

/** A decimal number such as `0.5` (seconds that may be fractions). */
export function decimal(spec: Common<number> & Bounds & Default<number>): Row<number> {
  return numeric(spec, 'number', /^-?\d+(\.\d+)?$/, 'is not a number');
}

/** `true/1/yes/on` or `false/0/no/off`, any case. */
export function bool(spec: Common<boolean> & Default<boolean>): Row<boolean> {
  return {
    ...spec,
    kind: 'bool',
    defaultValue: spec.default,
    parse(raw, fallback) {
      const value = booleanWord(raw);
      return value === undefined ? rejected(raw, 'is not true or false', fallback) : { value };
    },
  };
}

/** Free text (a path, a URL, a key); unset or empty means the default. */
export function text(spec: Common<string> & Default<string>): Row<string>;
export function text(spec: Common<string | undefined>): Row<string | undefined>;
export function text(spec: Common<string | undefined> & Partial<Default<string>>): Row<string | undefined> {
  return { ...spec, kind: 'string', defaultValue: spec.default, parse: (raw) => ({ value: raw }) };
}

/** Names separated by commas and/or whitespace. */
export function list(spec: Common<readonly string[]>): Row<readonly string[]> {
  return {
    ...spec,
    kind: 'list',
    defaultValue: [],
    parse: (raw) => ({ value: raw.split(/[\s,]+/).filter((item) => item !== '') }),
  };
}

/** One of a few words, any case. */
export function choice<const V extends string>(
  spec: Common<V> & Default<V> & { readonly values: readonly V[] },
): Row<V> {
  return {
    ...spec,
    kind: 'choice',
    defaultValue: spec.default,
    parse(raw, fallback) {
      const word = raw.trim().toLowerCase();
      const value = spec.values.find((candidate) => candidate === word);
      return value === undefined ? rejected(raw, `is not one of ${spec.values.join(', ')}`, fallback) : { value };
    },
  };
}

/** A value with a grammar of its own (MCPBASH_LOG_LEVEL). */
export function custom<T>(
  spec: Common<T> & Default<T> & { readonly parse: (raw: string, fallback: T) => Parsed<T> },
): Row<T> {
  return { ...spec, kind: 'custom', defaultValue: spec.default, parse: spec.parse };
}

/** Read only by the Bash the binary ships (SDK, providers, scaffolds, launchers). */
export function shell(
  spec: Omit<Common<never>, 'defaultDoc'> & { readonly defaultDoc: string },
): Row<never, ShellSetting> {
  return { ...spec, kind: 'shell' };
}
