import { stringifyExact } from '../json/raw-number.js';
import { ErrorCode } from '../spec/error-codes.js';
import type { JsonRpcErrorObject } from '../spec/rpc-error.js';
import { type RequestId, serializeId } from './messages.js';

/** Told when a response had to be shrunk to fit its size limit, or could not be serialised. */
export type OversizeReporter = (message: string) => void;

function byteSize(json: string, limit: number): number {
  // A UTF-8 string is at most 3 bytes per UTF-16 unit: below limit/3 it cannot be over.
  return json.length > limit / 3 ? Buffer.byteLength(json) : json.length;
}

/**
 * JSON text (a RawNumber in it written as sent), or the reason there is none (a cycle, a
 * BigInt, nesting deep enough to exhaust the stack).
 */
function stringify(value: unknown): string | Error {
  try {
    return stringifyExact(value) ?? new Error('not serialisable as JSON');
  } catch (error) {
    return error instanceof Error ? error : new Error(String(error));
  }
}

/**
 * A response line. Built by hand rather than with one JSON.stringify, so that an id the
 * peer wrote as a number JavaScript cannot hold (beyond 2^53) goes back exactly as sent.
 */
function envelope(id: RequestId | null, member: 'result' | 'error', json: string): string {
  return `{"jsonrpc":"2.0","id":${serializeId(id)},"${member}":${json}}`;
}

/**
 * Serialises an error response. One whose `data` makes it larger than `limit` bytes (or
 * cannot be serialised) loses that data: the code and message are what a client acts on.
 * An oversized error is never sent.
 */
export function serializeError(
  id: RequestId | null,
  error: JsonRpcErrorObject,
  limit: number,
  report?: OversizeReporter,
): string {
  const full = stringify(error);
  if (typeof full === 'string') {
    const json = envelope(id, 'error', full);
    const size = byteSize(json, limit);
    if (size <= limit) return json;
    report?.(
      `error response to request ${serializeId(id)} was ${size} bytes, over the limit of ${limit}; its data ` +
        `was dropped`,
    );
  } else {
    report?.(`the data of the error response to request ${serializeId(id)} was dropped: ${full.message}`);
  }
  const slim = envelope(id, 'error', JSON.stringify({ code: error.code, message: String(error.message) }));
  if (byteSize(slim, limit) <= limit) return slim;
  // Only a tool-chosen message can be this long; the code still tells the client what happened.
  return envelope(
    id,
    'error',
    JSON.stringify({ code: error.code, message: 'Error message exceeded response size limit' }),
  );
}

/**
 * Serialises a success response once; one larger than `limit` bytes becomes a -32603 error
 * instead, and so does a result that cannot be serialised (reported with the reason).
 */
export function serializeSuccess(
  id: RequestId | null,
  result: unknown,
  limit: number,
  report?: OversizeReporter,
): string {
  const body = stringify(result);
  if (typeof body !== 'string') {
    report?.(
      `the result for request ${serializeId(id)} could not be serialised (${body.message}); replaced by an error`,
    );
    return serializeError(
      id,
      { code: ErrorCode.InternalError, message: 'Internal error; the server log (stderr) has the details' },
      limit,
    );
  }
  const json = envelope(id, 'result', body);
  const size = byteSize(json, limit);
  if (size <= limit) return json;
  report?.(
    `response to request ${serializeId(id)} was ${size} bytes, over the limit of ${limit}; replaced by an error`,
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
