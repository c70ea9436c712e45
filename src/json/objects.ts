/** A plain JSON object: not null, not an array. */
export function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** `value` when it is a plain object, else an empty one (optional params and metadata). */
export function asObject(value: unknown): Record<string, unknown> {
  return isObject(value) ? value : {};
}
