import { decodeFrame, type InboundFrame } from '../jsonrpc/framing.js';
import { classifyMessage, type MessageKind, type RequestId } from '../jsonrpc/messages.js';
import { serializeError } from '../jsonrpc/wire.js';

/** A POST body read as JSON-RPC. */
export interface PostedMessages {
  readonly frame: InboundFrame;
  /** The ids of the requests in it. */
  readonly requestIds: readonly (RequestId | null)[];
  /** Whether the engine will answer something (requests, invalid messages, an empty batch). */
  readonly expectsAnswer: boolean;
  /** It holds an `initialize` request. */
  readonly initialize: boolean;
  /** How many messages it holds (a batch: its length). */
  readonly count: number;
  /** It is a batch (a JSON array), which only some protocol versions accept. */
  readonly batch: boolean;
  /**
   * Why it is no JSON-RPC message at all (an empty batch; one value that is no usable
   * request, notification or response): the POST is refused with 400, as the transport
   * requires of input the server cannot accept. A batch's bad elements are answered one by one.
   */
  readonly unacceptable?: string;
}

/** What is wrong with one value that is not a usable message; undefined when it is one. */
function problemOf(message: MessageKind): string | undefined {
  switch (message.kind) {
    case 'invalid':
      return message.detail;
    case 'malformed-notification':
    case 'unusable-response':
      return message.problem;
    default:
      return undefined;
  }
}

/** A body that is no JSON-RPC at all: answered 400 with this JSON-RPC error (its id if readable). */
export interface UnreadableBody {
  readonly errorJson: string;
}

/**
 * Decodes a POST body as the stdio transport decodes a line (BOM, lossy UTF-8, exact ids,
 * the nesting limit) and sorts what it holds. Invalid JSON, and an empty body, are refused
 * here: nothing reaches a session.
 */
export function readPostedMessages(body: Buffer, maxBytes: number): PostedMessages | UnreadableBody {
  const frame = decodeFrame({ kind: 'line', bytes: body }, maxBytes);
  if (frame === null) {
    return { errorJson: serializeError(null, { code: -32700, message: 'Parse error', data: 'Empty body' }, maxBytes) };
  }
  if (frame.kind === 'invalid') return { errorJson: serializeError(frame.id, frame.error.toJSON(), maxBytes) };
  const batch = Array.isArray(frame.value);
  const values = batch ? (frame.value as unknown[]) : [frame.value];
  const requestIds: (RequestId | null)[] = [];
  let expectsAnswer = values.length === 0;
  let initialize = false;
  let unacceptable = batch && values.length === 0 ? 'Empty batch' : undefined;
  for (const value of values) {
    const message = classifyMessage(value);
    if (message.kind === 'request') {
      requestIds.push(message.id);
      if (message.method === 'initialize') initialize = true;
    }
    if (message.kind === 'request' || message.kind === 'invalid') expectsAnswer = true;
    if (!batch) unacceptable = problemOf(message);
  }
  return {
    frame,
    requestIds,
    expectsAnswer,
    initialize,
    count: values.length,
    batch,
    ...(unacceptable === undefined ? {} : { unacceptable }),
  };
}
