import { randomBytes } from 'node:crypto';
import { ErrorCode } from '../spec/error-codes.js';
import type { LevelLog } from '../spec/logging-levels.js';
import { RpcError } from '../spec/rpc-error.js';
import { type RequestId, requestKey } from './messages.js';
import { describeError } from './wire.js';

/** The requests open between the peers: the peer's that we are working on, and ours that it has to answer. */

/**
 * Why the engine aborted a request's signal: the peer cancelled it, or the session is
 * ending. Its response is suppressed either way; handlers only stop their work.
 */
class RequestAborted extends Error {
  constructor(
    readonly why: 'cancelled' | 'shutdown',
    message: string,
  ) {
    super(message);
    this.name = 'RequestAborted';
  }
}

/** One request from the peer that is running or waiting for a slot. */
export interface InFlight {
  readonly controller: AbortController;
  /** Its handler has finished (its response, if any, is on its way). */
  settled: boolean;
  /** Cancelled by the peer or by the end of the session: its response is suppressed. */
  cancelled: boolean;
}

/**
 * Runs a request's handler to its serialised response (undefined: none): at once when the
 * handler answered without waiting, else a promise of it.
 */
export type RequestWork = (entry: InFlight) => string | undefined | Promise<string | undefined>;

/**
 * The peer's requests the engine is working on, by id: it refuses a second request under an
 * id still open, answers each once (or not at all once cancelled), aborts them on cancel or
 * shutdown, and tells waiters when none is left.
 */
export class InFlightRequests {
  private readonly byKey = new Map<string, InFlight>();
  private readonly running = new Set<Promise<void>>();
  private idleWaiters: Array<() => void> = [];

  constructor(private readonly log: LevelLog) {}

  /** Requests currently running or waiting for a slot. */
  get size(): number {
    return this.byKey.size;
  }

  /** Whether a request with this id is running or waiting for a slot. */
  has(id: RequestId): boolean {
    return this.byKey.has(requestKey(id));
  }

  /**
   * Starts `work` for the request `id` and hands its response to `respond` when it settles.
   * Returns false, and runs nothing, when a request with the same id is still open.
   */
  start(id: RequestId | null, method: string, work: RequestWork, respond: (json: string | undefined) => void): boolean {
    const key = requestKey(id);
    if (this.byKey.has(key)) return false;
    const entry: InFlight = { controller: new AbortController(), settled: false, cancelled: false };
    this.byKey.set(key, entry);
    const finish = (response: string | undefined) => {
      entry.settled = true;
      this.byKey.delete(key);
      respond(entry.cancelled ? undefined : response);
      if (this.byKey.size === 0) this.wakeIdleWaiters();
    };
    const failed = (error: unknown) =>
      this.log('error', `${method}: failed to send the reply: ${describeError(error)}`);
    const outcome = work(entry);
    if (!(outcome instanceof Promise)) {
      // Answered without waiting (initialize, ping, shutdown, a params error): answered now,
      // so replies keep the order of their requests as 1.x's inline methods did (§2.13).
      try {
        finish(outcome);
      } catch (error) {
        failed(error);
      }
      return true;
    }
    const run = outcome
      .then((response) => {
        this.running.delete(run);
        finish(response);
      })
      .catch(failed);
    this.running.add(run);
    return true;
  }

  /** Aborts an open request and suppresses its response; false when `id` is unknown or done. */
  cancel(id: RequestId, reason: string): boolean {
    const entry = this.byKey.get(requestKey(id));
    if (!entry || entry.settled || entry.cancelled) return false;
    entry.cancelled = true;
    entry.controller.abort(new RequestAborted('cancelled', reason));
    return true;
  }

  /** Aborts every open request for the end of the session (their handlers stop their processes). */
  abortAll(): void {
    for (const entry of this.byKey.values()) {
      entry.cancelled = true;
      entry.controller.abort(new RequestAborted('shutdown', 'Server shutting down'));
    }
  }

  /** Resolves once every handler started so far has finished, or after `timeoutMs`. */
  async settled(timeoutMs: number): Promise<void> {
    const all = Promise.allSettled([...this.running]);
    let timer: NodeJS.Timeout | undefined;
    const grace = new Promise<void>((resolve) => {
      timer = setTimeout(resolve, timeoutMs);
    });
    await Promise.race([all, grace]);
    clearTimeout(timer);
  }

  /** Resolves once no request is running or queued, or after `timeoutMs`. */
  whenIdle(timeoutMs: number): Promise<void> {
    if (this.byKey.size === 0) return Promise.resolve();
    return new Promise((resolve) => {
      const timer = setTimeout(done, timeoutMs);
      function done() {
        clearTimeout(timer);
        resolve();
      }
      this.idleWaiters.push(done);
    });
  }

  private wakeIdleWaiters(): void {
    const waiters = this.idleWaiters;
    this.idleWaiters = [];
    for (const wake of waiters) wake();
  }
}

export interface OutgoingRequestOptions {
  readonly timeoutMs: number;
  readonly signal?: AbortSignal;
}

/** The peer did not answer one of our requests in time. */
class RequestTimeoutError extends Error {
  constructor(method: string, timeoutMs: number) {
    super(`${method}: no response within ${timeoutMs} ms`);
    this.name = 'RequestTimeoutError';
  }
}

interface Pending {
  resolve(result: unknown): void;
  reject(error: Error): void;
}

/**
 * The requests we send to the peer (roots/list, elicitation/create), each settled once by
 * its response, its timeout, its abort signal or the end of the session. Their ids are
 * random (`mcpbash-` and 96 random bits), so nobody but the peer that received a request
 * can answer it: a forged answer to a guessed id would otherwise be taken for the client's.
 */
export class OutgoingRequests {
  private readonly pending = new Map<string, Pending>();
  private closed = false;

  /** `send` writes the request; the promise settles with the peer's result (RpcError for an error reply). */
  start(
    method: string,
    params: object | undefined,
    options: OutgoingRequestOptions,
    send: (message: object) => void,
  ): Promise<unknown> {
    if (this.closed) return Promise.reject(new Error('the session has ended'));
    const id = `mcpbash-${randomBytes(12).toString('base64url')}`;
    const key = requestKey(id);
    return new Promise((resolve, reject) => {
      const finish = () => {
        clearTimeout(timer);
        options.signal?.removeEventListener('abort', onAbort);
        this.pending.delete(key);
      };
      const timer = setTimeout(() => {
        finish();
        reject(new RequestTimeoutError(method, options.timeoutMs));
      }, options.timeoutMs);
      const onAbort = () => {
        finish();
        reject(options.signal?.reason instanceof Error ? options.signal.reason : new Error('aborted'));
      };
      if (options.signal?.aborted) {
        onAbort();
        return;
      }
      options.signal?.addEventListener('abort', onAbort, { once: true });
      this.pending.set(key, {
        resolve: (result) => {
          finish();
          resolve(result);
        },
        reject: (error) => {
          finish();
          reject(error);
        },
      });
      send(params === undefined ? { jsonrpc: '2.0', id, method } : { jsonrpc: '2.0', id, method, params });
    });
  }

  /** Settles the request a response answers; false when it is not ours (or no longer pending). */
  settle(id: RequestId, response: { result?: unknown; error?: unknown }): boolean {
    const pending = this.pending.get(requestKey(id));
    if (!pending) return false;
    const error = response.error;
    if (typeof error === 'object' && error !== null) {
      const { code, message, data } = error as { code?: unknown; message?: unknown; data?: unknown };
      pending.reject(
        new RpcError(
          typeof code === 'number' ? code : ErrorCode.InternalError,
          typeof message === 'string' ? message : 'Unknown error',
          data,
        ),
      );
    } else {
      pending.resolve(response.result);
    }
    return true;
  }

  /** Fails every pending request and refuses new ones: the session has ended. */
  close(): void {
    this.closed = true;
    for (const pending of [...this.pending.values()]) pending.reject(new Error('the session has ended'));
  }
}
