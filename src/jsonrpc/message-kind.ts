import { isObject } from '../json/objects.js';
import { MAX_NESTING_DEPTH, OverNestedMessage } from './frame-decoder.js';
import { isRequestId, type JsonRpcParams, type RequestId } from './messages.js';

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
