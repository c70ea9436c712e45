import { asObject } from '../json/objects.js';
import type { JsonRpcParams } from '../jsonrpc/messages.js';
import { RpcError } from '../spec/rpc-error.js';
import type { JsonObject } from '../spec/types.js';

/** A request's params by name; absent or by-position params read as none (no MCP method takes them). */
export function paramsObject(params: JsonRpcParams | undefined): Readonly<JsonObject> {
  return asObject(params);
}

/**
 * The one shape of a bad request: -32602 with the message the method has always used and
 * `data.field` naming the param (dotted from `params`: `argument.name`), plus a `hint`
 * saying what to send instead when there is one.
 */
export function invalidParam(field: string, message: string, extra: JsonObject = {}): RpcError {
  return RpcError.invalidParams(message, { field, ...extra });
}

/** A non-empty string, else undefined. */
export function nonEmptyString(value: unknown): string | undefined {
  return typeof value === 'string' && value !== '' ? value : undefined;
}

/** An optional string param: absent, null and '' read as absent; any other non-string is refused. */
export function optionalString(params: Readonly<JsonObject>, field: string): string | undefined {
  const value = params[field];
  if (value === undefined || value === null || value === '') return undefined;
  if (typeof value !== 'string') throw invalidParam(field, `${field} must be a string`);
  return value;
}

/** `_meta` of the params, or an empty object. */
export function metaOf(params: Readonly<JsonObject>): JsonObject {
  return asObject(params._meta);
}

/**
 * A count sent as a number or a digit string (1.x's clients send both): the integer when
 * it is a positive one, else undefined.
 */
export function positiveCount(value: unknown): number | undefined {
  const number = typeof value === 'string' && /^\d+$/.test(value) ? Number(value) : value;
  return typeof number === 'number' && Number.isInteger(number) && number > 0 ? number : undefined;
}

/** A positive, finite number of seconds (fractions allowed), else undefined. */
export function positiveSeconds(value: unknown): number | undefined {
  return typeof value === 'number' && Number.isFinite(value) && value > 0 ? value : undefined;
}

/** Methods whose params carry nothing the server reads (ping, shutdown, exit, initialized, list_changed). */
export function ignoreParams(): Record<string, never> {
  return {};
}
