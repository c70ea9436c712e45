import { ProjectError, type ProjectErrorKind } from '../project/project-error.js';
import { ErrorCode } from '../spec/error-codes.js';
import { RpcError } from '../spec/rpc-error.js';

/** The JSON-RPC code of each kind of project failure (original-behaviour §2.11). */
const CODE_OF: Readonly<Record<ProjectErrorKind, number>> = {
  'invalid-request': ErrorCode.InvalidParams,
  'not-found': ErrorCode.ResourceNotFound,
  failed: ErrorCode.InternalError,
};

/** A project or provider failure as the JSON-RPC error a client gets; anything else as it is. */
export function toWireError(error: unknown): unknown {
  if (!(error instanceof ProjectError)) return error;
  return new RpcError(CODE_OF[error.kind], error.message, error.data);
}
