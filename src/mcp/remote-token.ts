import { createHash, timingSafeEqual } from 'node:crypto';
import type { RemoteTokenConfig } from '../config/server-config.js';
import { isObject } from '../json/objects.js';
import type { JsonRpcParams } from '../jsonrpc/messages.js';
import { SlidingWindowLimiter } from '../runner/rate-limiter.js';
import type { LevelLog } from '../spec/logging-levels.js';
import { RpcError } from '../spec/rpc-error.js';

/** The shortest shared secret accepted: shorter ones are guessable through a proxy. */
export const MIN_REMOTE_TOKEN_LENGTH = 32;

/** The remote-token settings (original-behaviour §2.12) of an enabled guard. */
export interface RemoteTokenSettings {
  /** MCPBASH_REMOTE_TOKEN: the shared secret. */
  readonly token: string;
  /** MCPBASH_REMOTE_TOKEN_KEY: where in `params._meta` the token is looked for first. */
  readonly key: string;
  /** MCPBASH_REMOTE_TOKEN_FALLBACK_KEY: the other place it may be. */
  readonly fallbackKey: string;
  /** MCPBASH_REMOTE_TOKEN_MAX_FAILURES_PER_MIN: failures beyond this are marked throttled. */
  readonly maxFailuresPerMinute: number;
}

/**
 * Why MCPBASH_REMOTE_TOKEN cannot be used, or undefined when it is unset (an empty value
 * counts as unset) or good. The server refuses to start and `health` reports it.
 */
export function remoteTokenProblem(config: RemoteTokenConfig): string | undefined {
  const { token } = config;
  if (token === undefined || token.length >= MIN_REMOTE_TOKEN_LENGTH) return undefined;
  return `MCPBASH_REMOTE_TOKEN is ${token.length} characters long; it must have at least ${MIN_REMOTE_TOKEN_LENGTH}`;
}

/** The settings when the guard is enabled (MCPBASH_REMOTE_TOKEN set and long enough). */
export function remoteTokenSettings(config: RemoteTokenConfig): RemoteTokenSettings | undefined {
  const { token } = config;
  if (token === undefined || remoteTokenProblem(config)) return undefined;
  return { ...config, token };
}

function digest(value: string): Buffer {
  return createHash('sha256').update(value, 'utf8').digest();
}

function metaOf(params: JsonRpcParams | undefined): Record<string, unknown> | undefined {
  if (typeof params !== 'object' || params === null || Array.isArray(params)) return undefined;
  const meta = params._meta;
  return typeof meta === 'object' && meta !== null && !Array.isArray(meta)
    ? (meta as Record<string, unknown>)
    : undefined;
}

/** Where an answer to our request carries its `_meta`: in its result, or in its error's data. */
function responseMetaOf(response: Record<string, unknown>): Record<string, unknown> | undefined {
  const { result, error } = response;
  if (isObject(result)) return metaOf(result);
  return isObject(error) && isObject(error.data) ? metaOf(error.data) : undefined;
}

/**
 * The shared-secret check for a server reached through an HTTP/SSE proxy: every message
 * must carry the token in `params._meta` (answers to our requests: in `result._meta`).
 * Comparison is constant-time (SHA-256 digests of equal length through `timingSafeEqual`),
 * so response timing says nothing about the secret.
 */
export class RemoteTokenGuard {
  private readonly expected: Buffer;
  private readonly failures: SlidingWindowLimiter;

  constructor(
    private readonly settings: RemoteTokenSettings,
    /** Notes each refusal (stderr); past the budget, at debug so a flood cannot fill the log. */
    private readonly report: LevelLog,
    now: () => number = Date.now,
  ) {
    this.expected = digest(settings.token);
    this.failures = new SlidingWindowLimiter(settings.maxFailuresPerMinute, 60_000, now);
  }

  /**
   * Checks a message's params. On success the token is removed from `_meta`, so neither
   * handlers nor tools (MCP_TOOL_META_JSON) ever see the secret; on failure the error to
   * answer, marked ` (throttled)` past the per-minute failure budget.
   */
  admit(method: string, params: JsonRpcParams | undefined): RpcError | undefined {
    if (this.accepts(metaOf(params))) return undefined;
    const throttled = this.refuse(method);
    return RpcError.invalidParams(`Remote token missing or invalid${throttled ? ' (throttled)' : ''}`);
  }

  /**
   * Checks an answer to one of our own requests (roots/list, elicitation/create): a response
   * has no params, so the token rides in `result._meta` (or `error.data._meta`). An answer
   * without it is dropped: a stranger cannot answer for the client.
   */
  admitResponse(response: Record<string, unknown>): boolean {
    if (this.accepts(responseMetaOf(response))) return true;
    this.refuse('a response to our request');
    return false;
  }

  /** Whether `meta` holds the token; if so it is removed from there. */
  private accepts(meta: Record<string, unknown> | undefined): boolean {
    const candidates = [meta?.[this.settings.key], meta?.[this.settings.fallbackKey]];
    // Every candidate is compared, so timing does not reveal which key held a match.
    const matches = candidates.map(
      (candidate) => typeof candidate === 'string' && timingSafeEqual(digest(candidate), this.expected),
    );
    if (!matches.includes(true) || !meta) return false;
    delete meta[this.settings.key];
    delete meta[this.settings.fallbackKey];
    return true;
  }

  /** Counts and reports a refusal; returns whether the failure budget is spent. */
  private refuse(what: string): boolean {
    const throttled = !this.failures.tryTake();
    this.report(
      throttled ? 'debug' : 'warning',
      `refused ${what}: remote token missing or invalid${throttled ? ' (throttled)' : ''}`,
    );
    return throttled;
  }
}
