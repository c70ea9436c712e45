/**
 * What a failure means to whoever asked: the request was unusable (`invalid-request`), it
 * named something that is not there (`not-found`), or the project - a registry, a file, a
 * script it runs - failed (`failed`).
 */
export type ProjectErrorKind = 'invalid-request' | 'not-found' | 'failed';

/**
 * A failure of the project layer or of a provider. They know nothing of the wire: the MCP
 * handlers turn it into a JSON-RPC error (mcp/wire-errors.ts), keeping message and data.
 */
export class ProjectError extends Error {
  constructor(
    readonly kind: ProjectErrorKind,
    message: string,
    readonly data?: unknown,
  ) {
    super(message);
    this.name = 'ProjectError';
  }

  static failed(message: string, data?: unknown): ProjectError {
    return new ProjectError('failed', message, data);
  }

  static invalidRequest(message: string, data?: unknown): ProjectError {
    return new ProjectError('invalid-request', message, data);
  }
}
