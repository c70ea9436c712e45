/** JSON-RPC 2.0 message shapes (https://www.jsonrpc.org/specification). */
import type { JsonRpcErrorObject } from '../spec/rpc-error.js';

/**
 * A numeric id whose text a JavaScript number cannot reproduce: an integer beyond 2^53
 * (`9007199254740993`), or a number written another way than JavaScript would (`1.0`,
 * `1e3`). The id is echoed exactly as the peer wrote it (responses are serialised through
 * `serializeId`, which writes `text` as a bare JSON number).
 */
export class RawNumberId {
  constructor(readonly text: string) {}

  /** For logs and diagnostics only: the wire form comes from `serializeId`. */
  toJSON(): string {
    return this.text;
  }

  toString(): string {
    return this.text;
  }
}

export type RequestId = string | number | RawNumberId;

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
    typeof value === 'string' || (typeof value === 'number' && Number.isFinite(value)) || value instanceof RawNumberId
  );
}

/** A map key that keeps `1` and `"1"` apart (a raw numeric id is a number written exactly). */
export function requestKey(id: RequestId | null): string {
  if (id === null) return 'null';
  return id instanceof RawNumberId ? `number:${id.text}` : `${typeof id}:${String(id)}`;
}

/** An id as JSON text: exactly as the peer wrote it for a raw numeric id. */
export function serializeId(id: RequestId | null): string {
  return id instanceof RawNumberId ? id.text : JSON.stringify(id);
}
