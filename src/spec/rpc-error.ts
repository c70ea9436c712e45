import { ErrorCode } from './error-codes.js';

/** The `error` member of a JSON-RPC 2.0 error response. */
export interface JsonRpcErrorObject {
  readonly code: number;
  readonly message: string;
  readonly data?: unknown;
}

/**
 * A failure that becomes a JSON-RPC error response. Messages say what went wrong and what
 * to do next; they carry no code prefix (the code is its own field).
 */
export class RpcError extends Error {
  constructor(
    readonly code: number,
    message: string,
    readonly data?: unknown,
  ) {
    super(message);
    this.name = 'RpcError';
  }

  toJSON(): JsonRpcErrorObject {
    return this.data === undefined
      ? { code: this.code, message: this.message }
      : { code: this.code, message: this.message, data: this.data };
  }

  static invalidParams(message: string, data?: unknown): RpcError {
    return new RpcError(ErrorCode.InvalidParams, message, data);
  }

  static internal(message: string, data?: unknown): RpcError {
    return new RpcError(ErrorCode.InternalError, message, data);
  }
}
