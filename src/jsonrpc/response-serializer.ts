import { ErrorCode } from './error-codes.js';
import type { JsonRpcErrorObject, JsonRpcResponse, RequestId } from './messages.js';

/** Told when a response had to be shrunk to fit its size limit. */
export type OversizeReporter = (message: string) => void;

function byteSize(json: string, limit: number): number {
  // A UTF-8 string is at most 3 bytes per UTF-16 unit: below limit/3 it cannot be over.
  return json.length > limit / 3 ? Buffer.byteLength(json) : json.length;
}

/**
 * Serialises an error response. One whose `data` makes it larger than `limit` bytes loses
 * that data (the code and message are what a client acts on); an oversized error is never sent.
 */
export function serializeError(
  id: RequestId | null,
  error: JsonRpcErrorObject,
  limit: number,
  report?: OversizeReporter,
): string {
  const json = JSON.stringify({ jsonrpc: '2.0', id, error } satisfies JsonRpcResponse);
  const size = byteSize(json, limit);
  if (size <= limit) return json;
  report?.(
    `error response to request ${JSON.stringify(id)} was ${size} bytes, over the limit of ${limit}; its data was dropped`,
  );
  const slim: JsonRpcErrorObject = { code: error.code, message: error.message };
  const slimJson = JSON.stringify({ jsonrpc: '2.0', id, error: slim } satisfies JsonRpcResponse);
  if (byteSize(slimJson, limit) <= limit) return slimJson;
  // Only a tool-chosen message can be this long; the code still tells the client what happened.
  return JSON.stringify({
    jsonrpc: '2.0',
    id,
    error: { code: error.code, message: 'Error message exceeded response size limit' },
  });
}

/** Serialises a success response once; one larger than `limit` bytes becomes a -32603 error instead. */
export function serializeSuccess(
  id: RequestId | null,
  result: unknown,
  limit: number,
  report?: OversizeReporter,
): string {
  const json = JSON.stringify({ jsonrpc: '2.0', id, result } satisfies JsonRpcResponse);
  const size = byteSize(json, limit);
  if (size <= limit) return json;
  report?.(
    `response to request ${JSON.stringify(id)} was ${size} bytes, over the limit of ${limit}; replaced by an error`,
  );
  return serializeError(
    id,
    {
      code: ErrorCode.InternalError,
      message: 'Response exceeded response size limit',
      data: { bytes: size, limit },
    },
    limit,
  );
}
