/** JSON-RPC 2.0 message shapes (https://www.jsonrpc.org/specification). */
import { RawNumber } from '../json/raw-number.js';

/** An id as the peer sent it: a number it wrote in a way JavaScript cannot hold is a RawNumber. */
export type RequestId = string | number | RawNumber;

/** `params` as JSON-RPC allows it: by name or by position. */
export type JsonRpcParams = Record<string, unknown> | unknown[];

export function isRequestId(value: unknown): value is RequestId {
  return (
    typeof value === 'string' || (typeof value === 'number' && Number.isFinite(value)) || value instanceof RawNumber
  );
}

/** A map key that keeps `1` and `"1"` apart (a raw numeric id is a number written exactly). */
export function requestKey(id: RequestId | null): string {
  if (id === null) return 'null';
  return id instanceof RawNumber ? `number:${id.text}` : `${typeof id}:${String(id)}`;
}

/** An id as JSON text: exactly as the peer wrote it for a raw numeric id. */
export function serializeId(id: RequestId | null): string {
  return id instanceof RawNumber ? id.text : JSON.stringify(id);
}
