import { ProjectError } from '../project/project-error.js';

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
 * The failure of a provider that exited non-zero: 2 "Resource outside allowed roots"
 * (failed: -32603 on the wire); 3 "Resource not found" (not-found: -32002); 4 an invalid
 * request (-32602); 5, 6, 7 and anything else failed (-32603). Where 1.x used the
 * provider's stderr as the message it still does; the fixed messages carry it in
 * `data.detail`.
 */
export function providerFailure(exitCode: number, stderr: string, context: ProviderFailureContext): ProjectError {
  const detail = stderr.trim();
  const data = { provider: context.provider, uri: context.uri, exitCode, ...(detail ? { detail } : {}) };
  switch (exitCode) {
    case ProviderExit.OutsideRoots:
      return new ProjectError('failed', 'Resource outside allowed roots', data);
    case ProviderExit.NotFound:
      return new ProjectError('not-found', 'Resource not found', data);
    case ProviderExit.InvalidSpec:
      return new ProjectError('invalid-request', detail || 'Invalid resource specification', data);
    case ProviderExit.FetchFailed:
      return new ProjectError('failed', detail || 'Resource fetch failed', data);
    case ProviderExit.TooLarge:
      return new ProjectError('failed', detail || 'Resource exceeded size limit', data);
    default:
      return new ProjectError('failed', detail || 'Resource provider failed', data);
  }
}
