import type { LoggingLevel } from '../spec/logging-levels.js';
import type { RpcError } from '../spec/rpc-error.js';
import type { ConcurrencyLimiter } from './concurrency-limiter.js';
import type { JsonRpcParams } from './messages.js';

/** Writes one diagnostic line; it goes to stderr, never to the peer's stdout. */
export type EngineLog = (level: LoggingLevel, message: string) => void;

/** What the layer above decides for a JsonRpcEngine: limits, admission, batch policy, logging. */
export interface EngineOptions {
  /** Queued handlers running at once; more wait in arrival order. */
  readonly maxConcurrent: number;
  /**
   * The limiter queued handlers wait for, when several engines share one (the sessions of
   * an HTTP server); default: one of `maxConcurrent` slots for this engine alone.
   */
  readonly limiter?: ConcurrencyLimiter;
  /**
   * A result serialising to more bytes is replaced by an error; an error loses its `data`.
   * Applies to every response whose method has no entry in `maxResponseBytesByMethod`.
   */
  readonly maxResponseBytes: number;
  /** Limits of their own for some methods (e.g. lists, bounded by another setting). */
  readonly maxResponseBytesByMethod?: ReadonlyMap<string, number>;
  /**
   * Admission (lifecycle gating, authentication): an error refuses a request; for a
   * notification it means "drop". It sees the params before any handler does.
   */
  readonly admit?: (
    method: string,
    kind: 'request' | 'notification',
    params: JsonRpcParams | undefined,
  ) => RpcError | undefined;
  /**
   * Admission of a response to one of our requests (authentication): false drops it, as if
   * it had never arrived. It sees the response before it settles anything.
   */
  readonly admitResponse?: (response: Record<string, unknown>) => boolean;
  /** Returns why a batch is refused, or undefined to accept it. */
  readonly batchRefusal?: () => string | undefined;
  /** Diagnostics; they go to stderr, never to the peer's stdout. */
  readonly log: EngineLog;
}
