/** JSON-RPC 2.0 message shapes (https://www.jsonrpc.org/specification). */
import { RawNumber } from '../json/raw-number.js';
import type { JsonRpcErrorObject } from '../spec/rpc-error.js';

/** An id as the peer sent it: a number it wrote in a way JavaScript cannot hold is a RawNumber. */
export type RequestId = string | number | RawNumber;

/** `params` as JSON-RPC allows it: by name or by position. */
export type JsonRpcParams = Record<string, unknown> | unknown[];

export interface JsonRpcRequest {
  readonly jsonrpc: '2.0';
  readonly id: RequestId | null;
  readonly method: string;
  readonly params?: JsonRpcParams;
}

export interface JsonRpcNotification {
  readonly jsonrpc: '2.0';
  readonly method: string;
  readonly params?: JsonRpcParams;
}

export interface JsonRpcSuccess {
  readonly jsonrpc: '2.0';
  readonly id: RequestId | null;
  readonly result: unknown;
}

export interface JsonRpcFailure {
  readonly jsonrpc: '2.0';
  /** null when the request's id could not be determined (JSON-RPC 2.0 §5). */
  readonly id: RequestId | null;
  readonly error: JsonRpcErrorObject;
}

export type JsonRpcResponse = JsonRpcSuccess | JsonRpcFailure;

export type JsonRpcMessage = JsonRpcRequest | JsonRpcNotification | JsonRpcResponse;

/** Something to write to the peer: one message, or a batch reply. */
export type OutboundPayload = JsonRpcMessage | readonly JsonRpcResponse[];

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
