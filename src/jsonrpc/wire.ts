import { isSystemError, systemErrorCause, systemErrorLine } from '../fs/system-errors.js';
import { stringifyExact } from '../json/raw-number.js';
import { ErrorCode } from '../spec/error-codes.js';
import type { LevelLog } from '../spec/logging-levels.js';
import { type JsonRpcErrorObject, RpcError } from '../spec/rpc-error.js';
import { type RequestId, serializeId } from './messages.js';
import type { ReplyChannel, Transport } from './transport.js';

/** Writes one diagnostic line; it goes to stderr, never to the peer's stdout. */

/** The reply to a failure whose details are only for the server log. */
export const INTERNAL_ERROR: JsonRpcErrorObject = {
  code: ErrorCode.InternalError,
  message: 'Internal error; the server log (stderr) has the details',
};

/** An error's stack for the log; never throws, whatever was thrown. */
export function describeError(error: unknown): string {
  try {
    return error instanceof Error ? (error.stack ?? error.message) : String(error);
  } catch {
    return 'an exception that cannot be described';
  }
}

/** What to answer for an exception a handler threw, and what (if anything) to log about it. */
export function replyToThrown(error: unknown, method: string): { error: JsonRpcErrorObject; log?: string } {
  if (error instanceof RpcError) return { error: error.toJSON() };
  if (isSystemError(error)) {
    // A full disk or a missing permission is the machine's state, not a bug: one line.
    const message = `Internal error: ${systemErrorCause(error)}; the server log (stderr) has the details`;
    return { error: { code: ErrorCode.InternalError, message }, log: `${method}: ${systemErrorLine(error)}` };
  }
  return { error: INTERNAL_ERROR, log: `${method} failed unexpectedly: ${describeError(error)}` };
}

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
function serializeSuccess(id: RequestId | null, result: unknown, limit: number, report?: OversizeReporter): string {
  const body = stringify(result);
  if (typeof body !== 'string') {
    report?.(
      `the result for request ${serializeId(id)} could not be serialised (${body.message}); replaced by an error`,
    );
    return serializeError(id, INTERNAL_ERROR, limit);
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

/**
 * The engine's side of the wire: serialises its responses, each within the size limit of
 * its method (`limitOf`; what had to be shrunk or replaced is a warning), and writes what it
 * sends on its own (notifications, requests to the peer) to a frame's reply channel or to
 * the transport. A message that cannot be serialised is dropped and logged, so one bad
 * payload never ends the session.
 */
export class Wire {
  constructor(
    private readonly transport: Transport,
    private readonly log: LevelLog,
    private readonly limitOf: (method: string | undefined) => number,
  ) {}

  /** Frames without a channel of their own answer through the transport itself. */
  readonly transportChannel: ReplyChannel = {
    send: (json) => this.transport.send(json),
    end: (json) => {
      if (json !== undefined) this.transport.send(json);
    },
  };

  /** A success response; one over the limit (or not serialisable) becomes a -32603 error. */
  success(id: RequestId | null, result: unknown, method: string): string {
    return serializeSuccess(id, result, this.limitOf(method), this.reportOversize);
  }

  /** An error response; without `method` (the request is not known) the default limit applies. */
  error(id: RequestId | null, error: JsonRpcErrorObject, method?: string): string {
    return serializeError(id, error, this.limitOf(method), this.reportOversize);
  }

  /** Sends one message: on `channel` when it belongs to an inbound frame, else on the transport. */
  send(payload: unknown, channel?: ReplyChannel): void {
    let json: string | undefined;
    try {
      // A number the peer sent as a RawNumber (a progress token) goes back exactly as sent.
      json = stringifyExact(payload);
    } catch (error) {
      // A tool's log data, for instance, may be too deep or cyclic: drop it, keep serving.
      this.log('warning', `dropped an outgoing message that cannot be serialised: ${describeError(error)}`);
    }
    if (json === undefined) return;
    if (channel) channel.send(json);
    else this.transport.send(json);
  }

  /** Sends a notification; `params` is left out of the message when undefined. */
  notify(method: string, params: object | undefined, channel?: ReplyChannel): void {
    this.send(params === undefined ? { jsonrpc: '2.0', method } : { jsonrpc: '2.0', method, params }, channel);
  }

  private readonly reportOversize = (message: string): void => this.log('warning', message);
}
