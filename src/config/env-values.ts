/** Typed readers for configuration variables; invalid values fall back to the default. */

export type Env = Readonly<Record<string, string | undefined>>;

const TRUE_WORDS = new Set(['1', 'true', 'yes', 'on']);
const FALSE_WORDS = new Set(['0', 'false', 'no', 'off']);

/** A non-empty value, or undefined. */
export function envString(env: Env, name: string): string | undefined {
  const value = env[name];
  return value === undefined || value === '' ? undefined : value;
}

/** `true/1/yes/on` or `false/0/no/off` (any case); anything else is the default. */
export function envBool(env: Env, name: string, fallback: boolean): boolean {
  const value = envString(env, name)?.trim().toLowerCase();
  if (value === undefined) return fallback;
  if (TRUE_WORDS.has(value)) return true;
  if (FALSE_WORDS.has(value)) return false;
  return fallback;
}

export interface NumberBounds {
  readonly min?: number;
  readonly max?: number;
}

function bounded(value: number, fallback: number, bounds: NumberBounds): number {
  if (!Number.isFinite(value)) return fallback;
  if (bounds.min !== undefined && value < bounds.min) return fallback;
  if (bounds.max !== undefined && value > bounds.max) return bounds.max;
  return value;
}

/** A decimal integer; out-of-range below `min` gives the default, above `max` is capped. */
export function envInt(env: Env, name: string, fallback: number, bounds: NumberBounds = {}): number {
  const value = envString(env, name)?.trim();
  if (value === undefined || !/^-?\d+$/.test(value)) return fallback;
  return bounded(Number.parseInt(value, 10), fallback, bounds);
}

/** A decimal number such as `0.5`. */
export function envNumber(env: Env, name: string, fallback: number, bounds: NumberBounds = {}): number {
  const value = envString(env, name)?.trim();
  if (value === undefined || !/^-?\d+(\.\d+)?$/.test(value)) return fallback;
  return bounded(Number.parseFloat(value), fallback, bounds);
}

/** A list separated by commas and/or whitespace, without empty entries. */
export function envList(env: Env, name: string): string[] {
  return (envString(env, name) ?? '').split(/[\s,]+/).filter((item) => item !== '');
}
