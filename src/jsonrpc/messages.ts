/** JSON-RPC 2.0 message shapes (https://www.jsonrpc.org/specification). */

export type RequestId = string | number;

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

export interface JsonRpcErrorObject {
  readonly code: number;
  readonly message: string;
  readonly data?: unknown;
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
  return typeof value === 'string' || (typeof value === 'number' && Number.isFinite(value));
}

/** A map key that keeps `1` and `"1"` apart. */
export function requestKey(id: RequestId | null): string {
  return id === null ? 'null' : `${typeof id}:${String(id)}`;
}
