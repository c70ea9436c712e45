/** JSON-RPC 2.0 message shapes (https://www.jsonrpc.org/specification), and what one decoded value is. */
import { isObject } from '../json/objects.js';
import { RawNumber } from '../json/raw-number.js';
import { ErrorCode } from '../spec/error-codes.js';
import { RpcError } from '../spec/rpc-error.js';

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

/** The -32600 error for a message or batch that is not a request the engine can take. */
export function invalidRequest(detail: string): RpcError {
  return new RpcError(ErrorCode.InvalidRequest, 'Invalid Request', detail);
}

/**
 * How deeply a message's containers may nest. Far beyond any real MCP message (schemas and
 * arguments nest a few dozen levels), far below where recursive code (JSON.stringify among
 * it) runs out of stack, at about 5,000 levels. Deeper messages are refused, not walked.
 */
export const MAX_NESTING_DEPTH = 256;

/**
 * A message nested deeper than MAX_NESTING_DEPTH. Only what is needed to answer it is kept
 * (scalars of its top level); its contents never reach a handler.
 */
export class OverNestedMessage {
  readonly hasId: boolean;
  readonly id: unknown;
  readonly method: string | undefined;
  readonly hasMethod: boolean;
  readonly isResponse: boolean;

  constructor(
    message: Record<string, unknown>,
    readonly depth: number,
  ) {
    this.hasId = 'id' in message;
    this.id = isRequestId(message.id) ? message.id : null;
    this.hasMethod = 'method' in message;
    this.method = typeof message.method === 'string' ? message.method : undefined;
    this.isResponse = 'result' in message || 'error' in message;
  }
}

/** What one decoded JSON value is, as far as JSON-RPC 2.0 is concerned. */
export type MessageKind =
  | {
      readonly kind: 'request';
      readonly id: RequestId | null;
      readonly method: string;
      readonly params: JsonRpcParams | undefined;
    }
  | { readonly kind: 'notification'; readonly method: string; readonly params: JsonRpcParams | undefined }
  /** A notification too broken to run; it still gets no reply. */
  | { readonly kind: 'malformed-notification'; readonly method: unknown; readonly problem: string }
  | { readonly kind: 'response'; readonly id: RequestId; readonly message: Record<string, unknown> }
  /** A response we cannot use (nested too deeply); like a notification, it gets no reply. */
  | { readonly kind: 'unusable-response'; readonly id: unknown; readonly problem: string }
  /** Answered with -32600 under `id` (null when it is not usable). */
  | { readonly kind: 'invalid'; readonly id: RequestId | null; readonly detail: string };

function paramsProblem(params: unknown): string | undefined {
  return params !== undefined && typeof params !== 'object' ? 'params must be an object or an array' : undefined;
}

/** A message too deep to handle: refused like an invalid one, but a notification or response still gets no reply. */
function classifyOverNested(message: OverNestedMessage): MessageKind {
  const problem = `nested ${message.depth} levels deep; at most ${MAX_NESTING_DEPTH} are accepted`;
  if (message.hasMethod && !message.hasId) return { kind: 'malformed-notification', method: message.method, problem };
  if (!message.hasMethod && message.isResponse) return { kind: 'unusable-response', id: message.id, problem };
  return { kind: 'invalid', id: isRequestId(message.id) ? message.id : null, detail: `Message ${problem}` };
}

/**
 * Sorts a value into request, notification, response or invalid. Anything with a `method`
 * and no `id` is a notification whatever else is wrong with it: JSON-RPC 2.0 §4.1 forbids
 * replying to one, so its faults can only be logged.
 */
export function classifyMessage(value: unknown): MessageKind {
  if (value instanceof OverNestedMessage) return classifyOverNested(value);
  if (!isObject(value)) return { kind: 'invalid', id: null, detail: 'Expected a JSON-RPC message object' };
  const { method, params } = value;
  const badVersion = 'jsonrpc' in value && value.jsonrpc !== '2.0' ? 'jsonrpc must be "2.0"' : undefined;
  if ('method' in value && !('id' in value)) {
    const problem = typeof method !== 'string' ? 'method must be a string' : (badVersion ?? paramsProblem(params));
    return problem
      ? { kind: 'malformed-notification', method, problem }
      : { kind: 'notification', method: method as string, params: params as JsonRpcParams | undefined };
  }
  const { id } = value;
  const usableId = id === null || isRequestId(id) ? id : null;
  if (badVersion) return { kind: 'invalid', id: usableId, detail: badVersion };
  if (typeof method === 'string') {
    const problem = paramsProblem(params);
    if (problem) return { kind: 'invalid', id: usableId, detail: problem };
    if (id !== null && !isRequestId(id))
      return { kind: 'invalid', id: null, detail: 'id must be a string or a number' };
    return { kind: 'request', id, method, params: params as JsonRpcParams | undefined };
  }
  if (!('method' in value) && ('result' in value || 'error' in value) && isRequestId(id)) {
    return { kind: 'response', id, message: value };
  }
  return { kind: 'invalid', id: usableId, detail: 'Missing method' };
}
