import type { EngineLog } from './engine-options.js';
import { type RequestId, requestKey } from './messages.js';
import { RequestAborted } from './request-aborted.js';
import { describeError } from './thrown-errors.js';

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

  constructor(private readonly log: EngineLog) {}

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
