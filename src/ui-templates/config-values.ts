import { isObject } from '../json/objects.js';

/** Lenient readers for template configs: a value of the wrong type gives the default. */

export function text(config: Record<string, unknown>, key: string, fallback = ''): string {
  const value = config[key];
  return typeof value === 'string' ? value : fallback;
}

export function flag(config: Record<string, unknown>, key: string, fallback: boolean): boolean {
  const value = config[key];
  return typeof value === 'boolean' ? value : fallback;
}

export function count(config: Record<string, unknown>, key: string, fallback: number, min = 0): number {
  const value = config[key];
  return typeof value === 'number' && Number.isFinite(value) && value >= min ? value : fallback;
}

export function objects(config: Record<string, unknown>, key: string): Array<Record<string, unknown>> {
  const value = config[key];
  return Array.isArray(value) ? value.filter(isObject) : [];
}

export function record(config: Record<string, unknown>, key: string): Record<string, unknown> {
  const value = config[key];
  return isObject(value) ? value : {};
}
