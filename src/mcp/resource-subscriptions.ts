import { randomUUID } from 'node:crypto';
import { RpcError } from '../spec/rpc-error.js';
import type { ResolvedResource } from './resource-reader.js';

/** The longest wait between two polls of an unchanged resource (unless the base interval is longer). */
export const MAX_POLL_BACKOFF_MS = 30_000;

interface Subscription {
  readonly id: string;
  target: ResolvedResource;
  /** What the last read returned (content hash or error), to detect changes. */
  fingerprint: string;
  /** The current wait between polls: doubles while nothing changes. */
  intervalMs: number;
  dueAt: number;
}

export interface SubscriptionOptions {
  /** MCPBASH_RESOURCES_POLL_INTERVAL_SECS in ms; 0 disables polling. */
  readonly intervalMs: number;
  /** MCPBASH_MAX_SUBSCRIPTIONS: distinct URIs one session may subscribe to. */
  readonly maxSubscriptions: number;
  /**
   * Reads a resource again; resolves with its fingerprint (errors included), never rejects.
   * It runs the provider under the server's concurrency limit, like a request.
   */
  readonly poll: (target: ResolvedResource, signal: AbortSignal) => Promise<string>;
  /** Sends `notifications/resources/updated {uri}`. */
  readonly notify: (uri: string) => void;
  readonly now?: () => number;
}

/**
 * The session's resource subscriptions, keyed by URI, at most `maxSubscriptions`. A poller
 * re-reads each subscribed resource when it is due (one read at a time) and reports those
 * whose content or error changed. A resource that does not change is polled less and less
 * often: its interval doubles after each unchanged read, up to MAX_POLL_BACKOFF_MS; a change
 * or a new subscribe brings it back to the base interval. The poller runs only while
 * something is subscribed and stops with the session.
 */
export class ResourceSubscriptions {
  private readonly byUri = new Map<string, Subscription>();
  private readonly now: () => number;
  private timer: NodeJS.Timeout | undefined;
  private round: AbortController | undefined;
  private stopped = false;

  constructor(private readonly options: SubscriptionOptions) {
    this.now = options.now ?? Date.now;
  }

  get size(): number {
    return this.byUri.size;
  }

  /**
   * Throws the error to answer when subscribing to `uri` would pass the cap: checked before
   * the first read, so a refused subscribe costs no provider run.
   */
  checkRoom(uri: string): void {
    if (this.byUri.has(uri) || this.byUri.size < this.options.maxSubscriptions) return;
    throw RpcError.invalidParams(
      `Too many subscriptions: this session already has ${this.byUri.size} (MCPBASH_MAX_SUBSCRIPTIONS)`,
      'Unsubscribe from a resource you no longer need, then subscribe again.',
    );
  }

  /** Subscribes (again) to `target.uri`; returns the subscription's id. */
  add(target: ResolvedResource, fingerprint: string): string {
    this.checkRoom(target.uri);
    const existing = this.byUri.get(target.uri);
    const intervalMs = this.options.intervalMs;
    if (existing) {
      Object.assign(existing, { target, fingerprint, intervalMs, dueAt: this.now() + intervalMs });
      this.reschedule();
      return existing.id;
    }
    const id = `sub-${randomUUID()}`;
    this.byUri.set(target.uri, { id, target, fingerprint, intervalMs, dueAt: this.now() + intervalMs });
    this.schedule();
    return id;
  }

  /** Removes the subscription of a URI (or, for 1.x clients, of an id); false when there was none. */
  remove(key: { uri?: string; id?: string }): boolean {
    let uri = key.uri;
    if (uri === undefined && key.id !== undefined) {
      uri = [...this.byUri.values()].find((subscription) => subscription.id === key.id)?.target.uri;
    }
    const removed = uri !== undefined && this.byUri.delete(uri);
    if (this.byUri.size === 0) this.cancelTimer();
    return removed;
  }

  /** Ends polling for good (the session is over). */
  stop(): void {
    this.stopped = true;
    this.byUri.clear();
    this.cancelTimer();
  }

  private cancelTimer(): void {
    clearTimeout(this.timer);
    this.timer = undefined;
    this.round?.abort();
    this.round = undefined;
  }

  /** A subscription became due sooner: move the timer (a round in flight reschedules itself). */
  private reschedule(): void {
    if (this.round) return;
    clearTimeout(this.timer);
    this.timer = undefined;
    this.schedule();
  }

  private schedule(): void {
    if (this.stopped || this.timer || this.round || this.options.intervalMs <= 0 || this.byUri.size === 0) return;
    const next = Math.min(...[...this.byUri.values()].map((subscription) => subscription.dueAt));
    this.timer = setTimeout(
      () => {
        this.timer = undefined;
        void this.pollDue();
      },
      Math.max(0, next - this.now()),
    );
    this.timer.unref();
  }

  private async pollDue(): Promise<void> {
    const round = new AbortController();
    this.round = round;
    const due = [...this.byUri.values()].filter((subscription) => subscription.dueAt <= this.now());
    for (const subscription of due) {
      if (round.signal.aborted) break;
      const fingerprint = await this.options.poll(subscription.target, round.signal);
      if (round.signal.aborted || this.byUri.get(subscription.target.uri) !== subscription) continue;
      const changed = fingerprint !== subscription.fingerprint;
      const base = this.options.intervalMs;
      subscription.intervalMs = changed
        ? base
        : Math.min(subscription.intervalMs * 2, Math.max(base, MAX_POLL_BACKOFF_MS));
      subscription.dueAt = this.now() + subscription.intervalMs;
      if (!changed) continue;
      subscription.fingerprint = fingerprint;
      this.options.notify(subscription.target.uri);
    }
    if (this.round === round) this.round = undefined;
    this.schedule();
  }
}
