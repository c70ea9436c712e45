import { JsonTokenizer, type JsonTokenKind } from '../json/json-tokens.js';
import { isObject } from '../json/objects.js';
import { RawNumber } from '../json/raw-number.js';
import { ErrorCode } from '../spec/error-codes.js';
import { RpcError } from '../spec/rpc-error.js';
import { type ScannedMessage, scanLine } from './message-scan.js';
import { isRequestId, MAX_NESTING_DEPTH, OverNestedMessage, type RequestId } from './messages.js';

/**
 * Framing: input bytes to lines (bounded memory), lines to JSON values with what JSON.parse
 * loses restored, or to the error that answers them.
 */

/** A complete input line, or one that outgrew the limit (only its start is kept). */
export type SplitEvent =
  | { readonly kind: 'line'; readonly bytes: Buffer }
  | { readonly kind: 'oversized'; readonly prefix: Buffer; readonly size: number };

/** How much of an oversized line is kept: enough to find its id and answer it. */
const OVERSIZED_PREFIX_BYTES = 4096;

/**
 * Splits a byte stream into newline-terminated lines with bounded memory: a line longer than
 * `maxLineBytes` is not buffered but counted and reported once it ends, so one huge message
 * costs a reply, not the server.
 */
export class LineSplitter {
  private chunks: Buffer[] = [];
  private length = 0;
  private oversized: { prefix: Buffer; size: number } | undefined;

  constructor(private readonly maxLineBytes: number) {}

  /** Feeds a chunk and returns the lines it completed. */
  push(chunk: Buffer): SplitEvent[] {
    const events: SplitEvent[] = [];
    let start = 0;
    for (;;) {
      const newline = chunk.indexOf(0x0a, start);
      this.append(newline === -1 ? chunk.subarray(start) : chunk.subarray(start, newline));
      if (newline === -1) break;
      events.push(this.takeLine());
      start = newline + 1;
    }
    return events;
  }

  /** Ends the stream: a last line without a newline still counts. */
  end(): SplitEvent[] {
    return this.length > 0 || this.oversized ? [this.takeLine()] : [];
  }

  private append(piece: Buffer): void {
    if (piece.length === 0) return;
    if (this.oversized) {
      this.oversized.size += piece.length;
      return;
    }
    if (this.length + piece.length > this.maxLineBytes) {
      const prefix = Buffer.concat([...this.chunks, piece.subarray(0, OVERSIZED_PREFIX_BYTES)]).subarray(
        0,
        OVERSIZED_PREFIX_BYTES,
      );
      this.oversized = { prefix: Buffer.from(prefix), size: this.length + piece.length };
      this.chunks = [];
      this.length = 0;
      return;
    }
    // Copy: the caller may reuse its buffer.
    this.chunks.push(Buffer.from(piece));
    this.length += piece.length;
  }

  private takeLine(): SplitEvent {
    if (this.oversized) {
      const event: SplitEvent = { kind: 'oversized', prefix: this.oversized.prefix, size: this.oversized.size };
      this.oversized = undefined;
      return event;
    }
    const bytes = this.chunks.length === 1 ? (this.chunks[0] as Buffer) : Buffer.concat(this.chunks);
    this.chunks = [];
    this.length = 0;
    return { kind: 'line', bytes };
  }
}

/** One decoded input line: a JSON value, or an error to answer (with the id if recoverable). */
export type InboundFrame =
  | { readonly kind: 'value'; readonly value: unknown }
  | { readonly kind: 'invalid'; readonly id: RequestId | null; readonly error: RpcError };

// Lossy on purpose: 1.x (jq) turned invalid bytes into U+FFFD and still handled the message.
const lossyUtf8 = new TextDecoder('utf-8', { ignoreBOM: true });
const BOM = Buffer.from([0xef, 0xbb, 0xbf]);

/**
 * Finds a request id in text that could not be parsed, so the client's pending request fails
 * instead of waiting forever. Only a complete top-level `"id"` member seen before `"params"`
 * is trusted: its value must be followed by `,` or `}` (text cut inside `"id":123` would give
 * 12), and members of nested objects (`_meta`, arguments) are skipped, not mistaken for it.
 * The engine still answers null when the id names a request in flight (engine.ts).
 */
export function recoverRequestId(text: string): RequestId | null {
  const tokens = new JsonTokenizer(text);
  if (tokens.next() !== '{') return null;
  let depth = 1;
  let previous: JsonTokenKind = '{';
  for (let kind = tokens.next(); kind !== 'end' && depth > 0; kind = tokens.next()) {
    if (kind === '{' || kind === '[') depth += 1;
    else if (kind === '}' || kind === ']') depth -= 1;
    else if (kind === 'string' && depth === 1 && (previous === '{' || previous === ',')) {
      const key = stringToken(tokens);
      if (key === 'params') return null;
      if (key === 'id') return tokens.next() === ':' ? idToken(tokens) : null;
    }
    previous = kind;
  }
  return null;
}

/** The value of the string token under the tokenizer, or undefined when its escapes are broken. */
function stringToken(tokens: JsonTokenizer): string | undefined {
  try {
    return tokens.stringValue;
  } catch {
    return undefined;
  }
}

/** The id whose token comes next, exact, or null when that token is no id or the member does not end. */
function idToken(tokens: JsonTokenizer): RequestId | null {
  const kind = tokens.next();
  let id: unknown;
  if (kind === 'string') id = stringToken(tokens);
  else if (kind === 'number') {
    try {
      id = exactNumber(JSON.parse(tokens.token), tokens.token);
    } catch {
      return null;
    }
  }
  const after = tokens.next();
  return isRequestId(id) && (after === ',' || after === '}') ? id : null;
}

/**
 * A progress token JSON.parse may have changed: a number that is not a safe integer. Usual
 * tokens (strings, small integers) do not make a message pay for the scan.
 */
function isInexactToken(token: unknown): token is number {
  return typeof token === 'number' && !Number.isSafeInteger(token);
}

/** The `_meta` of a message's params, when both are objects. */
function metaOfParams(params: unknown): Record<string, unknown> | undefined {
  return isObject(params) && isObject(params._meta) ? params._meta : undefined;
}

/**
 * Whether a parsed message may need the scan: a numeric id or a progress token that is not
 * a safe integer (exact text), or a long line (depth).
 */
function mayNeedScan(value: unknown, text: string): boolean {
  if (Array.isArray(value) || text.length >= 2 * MAX_NESTING_DEPTH) return true;
  if (!isObject(value)) return false;
  const { params } = value;
  return (
    typeof value.id === 'number' ||
    (isObject(params) && typeof params.requestId === 'number') ||
    isInexactToken(metaOfParams(params)?.progressToken)
  );
}

/** A number as sent, when JavaScript would write it differently (precision lost, `1.0`). */
function exactNumber(parsed: unknown, text: string | undefined): unknown {
  return typeof parsed === 'number' && text !== undefined && JSON.stringify(parsed) !== text
    ? new RawNumber(text)
    : parsed;
}

/** One message with its ids and progress token exact, or an OverNestedMessage. */
function refineMessage(value: unknown, scanned: ScannedMessage | undefined): unknown {
  if (!scanned) return value;
  if (isObject(value)) {
    const id = exactNumber(value.id, scanned.idText);
    if (id !== value.id) value.id = id;
    const { params } = value;
    const requestId = isObject(params) ? exactNumber(params.requestId, scanned.requestIdText) : undefined;
    if (isObject(params) && requestId !== params.requestId) params.requestId = requestId;
    const meta = metaOfParams(params);
    // Only tokens that may have changed: which ones are restored must not depend on the id.
    if (meta && isInexactToken(meta.progressToken))
      meta.progressToken = exactNumber(meta.progressToken, scanned.progressTokenText);
  }
  if (scanned.depth <= MAX_NESTING_DEPTH) return value;
  return new OverNestedMessage(isObject(value) ? value : {}, scanned.depth);
}

/**
 * What JSON.parse loses, restored: ids exactly as written (a number beyond 2^53 would come
 * back changed), a progress token beyond 2^53 (or a fraction) too, and messages nested too
 * deeply to handle replaced by OverNestedMessage. Short lines without a numeric id or such
 * a token skip the scan.
 */
function refineLine(value: unknown, text: string): unknown {
  if (!mayNeedScan(value, text)) return value;
  const scan = scanLine(text);
  if (!scan.batch) return refineMessage(value, scan.messages[0]);
  return (value as unknown[]).map((element, index) => refineMessage(element, scan.messages[index]));
}

/**
 * Turns one input line into a frame: strips a UTF-8 BOM and surrounding whitespace (CRLF
 * included), replaces invalid UTF-8 sequences with U+FFFD, rejects invalid JSON. Blank
 * lines yield null.
 */
export function decodeFrame(event: SplitEvent, maxLineBytes: number): InboundFrame | null {
  if (event.kind === 'oversized') {
    return {
      kind: 'invalid',
      id: recoverRequestId(lossyUtf8.decode(event.prefix)),
      error: new RpcError(
        ErrorCode.InvalidRequest,
        `Message too large: ${event.size} bytes exceeds the limit of ${maxLineBytes} bytes (MCPBASH_MAX_MESSAGE_BYTES)`,
      ),
    };
  }
  let bytes = event.bytes;
  if (bytes.subarray(0, 3).equals(BOM)) bytes = bytes.subarray(3);
  const text = lossyUtf8.decode(bytes).trim();
  if (text === '') return null;
  try {
    return { kind: 'value', value: refineLine(JSON.parse(text), text) };
  } catch (error) {
    return {
      kind: 'invalid',
      id: recoverRequestId(text),
      error: new RpcError(ErrorCode.ParseError, 'Parse error', `Invalid JSON: ${(error as Error).message}`),
    };
  }
}
