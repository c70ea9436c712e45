import { ErrorCode } from './error-codes.js';
import type { SplitEvent } from './line-splitter.js';
import { isRequestId, type RequestId } from './messages.js';
import { RpcError } from './rpc-error.js';

/** One decoded input line: a JSON value, or an error to answer (with the id if recoverable). */
export type InboundFrame =
  | { readonly kind: 'value'; readonly value: unknown }
  | { readonly kind: 'invalid'; readonly id: RequestId | null; readonly error: RpcError };

// Lossy on purpose: 1.x (jq) turned invalid bytes into U+FFFD and still handled the message.
const lossyUtf8 = new TextDecoder('utf-8', { ignoreBOM: true });
const BOM = Buffer.from([0xef, 0xbb, 0xbf]);

/**
 * Finds a request id in text that could not be parsed, so the client's pending request fails
 * instead of waiting forever. Only an `"id"` member seen before `"params"` is trusted.
 */
export function recoverRequestId(text: string): RequestId | null {
  if (!/^\s*\{/.test(text)) return null;
  const match = /"id"\s*:\s*(-?\d+(?:\.\d+)?(?:[eE][+-]?\d+)?|"(?:[^"\\]|\\.)*")/.exec(text);
  if (!match) return null;
  const paramsAt = text.indexOf('"params"');
  if (paramsAt !== -1 && paramsAt < match.index) return null;
  try {
    const id: unknown = JSON.parse(match[1] as string);
    return isRequestId(id) ? id : null;
  } catch {
    return null;
  }
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
    return { kind: 'value', value: JSON.parse(text) };
  } catch (error) {
    return {
      kind: 'invalid',
      id: recoverRequestId(text),
      error: new RpcError(ErrorCode.ParseError, 'Parse error', `Invalid JSON: ${(error as Error).message}`),
    };
  }
}
