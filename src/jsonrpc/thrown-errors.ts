import { isSystemError, systemErrorCause, systemErrorLine } from '../fs/system-errors.js';
import { isObject } from '../json/objects.js';
import { ErrorCode } from '../spec/error-codes.js';
import type { JsonRpcErrorObject } from '../spec/rpc-error.js';
import { RpcError } from '../spec/rpc-error.js';
import { isRequestId, type RequestId } from './messages.js';

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

/** The id a message asks to be answered under, if it is a request; undefined for anything else. */
export function requestIdOf(value: unknown): RequestId | null | undefined {
  if (!isObject(value) || typeof value.method !== 'string' || !('id' in value)) return undefined;
  return isRequestId(value.id) ? value.id : null;
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
