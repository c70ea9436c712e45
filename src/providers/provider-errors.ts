import { ErrorCode } from '../jsonrpc/error-codes.js';
import { RpcError } from '../jsonrpc/rpc-error.js';

/** The provider exit-code contract (seed 004, original-behaviour §6.1). */
export const ProviderExit = {
  Ok: 0,
  OutsideRoots: 2,
  NotFound: 3,
  InvalidSpec: 4,
  FetchFailed: 5,
  TooLarge: 6,
  Redirect: 7,
} as const;

export interface ProviderFailureContext {
  readonly provider: string;
  readonly uri: string;
}

/**
 * The JSON-RPC error for a provider that exited non-zero: 2 → -32603 "Resource outside
 * allowed roots"; 3 → -32002 "Resource not found"; 4 → -32602; 5, 6, 7 and anything else
 * → -32603. Where 1.x used the provider's stderr as the message it still does; the fixed
 * messages carry it in `data.detail`.
 */
export function providerFailure(exitCode: number, stderr: string, context: ProviderFailureContext): RpcError {
  const detail = stderr.trim();
  const data = { provider: context.provider, uri: context.uri, exitCode, ...(detail ? { detail } : {}) };
  switch (exitCode) {
    case ProviderExit.OutsideRoots:
      return new RpcError(ErrorCode.InternalError, 'Resource outside allowed roots', data);
    case ProviderExit.NotFound:
      return new RpcError(ErrorCode.ResourceNotFound, 'Resource not found', data);
    case ProviderExit.InvalidSpec:
      return new RpcError(ErrorCode.InvalidParams, detail || 'Invalid resource specification', data);
    case ProviderExit.FetchFailed:
      return new RpcError(ErrorCode.InternalError, detail || 'Resource fetch failed', data);
    case ProviderExit.TooLarge:
      return new RpcError(ErrorCode.InternalError, detail || 'Resource exceeded size limit', data);
    default:
      return new RpcError(ErrorCode.InternalError, detail || 'Resource provider failed', data);
  }
}
