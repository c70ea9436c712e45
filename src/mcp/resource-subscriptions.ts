import { randomUUID } from 'node:crypto';
import type { ResolvedResource } from './resource-reader.js';

interface Subscription {
  readonly id: string;
  target: ResolvedResource;
  /** What the last read returned (content hash or error), to detect changes. */
  fingerprint: string;
}

export interface SubscriptionOptions {
  /** MCPBASH_RESOURCES_POLL_INTERVAL_SECS in ms; 0 disables polling. */
  readonly intervalMs: number;
  /** Reads a resource again; resolves with its fingerprint (errors included), never rejects. */
  readonly poll: (target: ResolvedResource, signal: AbortSignal) => Promise<string>;
  /** Sends `notifications/resources/updated {uri}`. */
  readonly notify: (uri: string) => void;
}

/**
 * The session's resource subscriptions, keyed by URI. A poller re-reads every subscribed
 * resource each interval (one round at a time) and reports those whose content or error
 * changed. It runs only while something is subscribed and stops with the session.
 */
export class ResourceSubscriptions {
  private readonly byUri = new Map<string, Subscription>();
  private timer: NodeJS.Timeout | undefined;
  private round: AbortController | undefined;
  private stopped = false;

  constructor(private readonly options: SubscriptionOptions) {}

  get size(): number {
    return this.byUri.size;
  }

  /** Subscribes (again) to `target.uri`; returns the subscription's id. */
  add(target: ResolvedResource, fingerprint: string): string {
    const existing = this.byUri.get(target.uri);
    if (existing) {
      existing.target = target;
      existing.fingerprint = fingerprint;
      return existing.id;
    }
    const id = `sub-${randomUUID()}`;
    this.byUri.set(target.uri, { id, target, fingerprint });
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

  private schedule(): void {
    if (this.stopped || this.timer || this.round || this.options.intervalMs <= 0 || this.byUri.size === 0) return;
    this.timer = setTimeout(() => {
      this.timer = undefined;
      void this.pollRound();
    }, this.options.intervalMs);
    this.timer.unref();
  }

  private async pollRound(): Promise<void> {
    const round = new AbortController();
    this.round = round;
    for (const subscription of [...this.byUri.values()]) {
      if (round.signal.aborted) break;
      const fingerprint = await this.options.poll(subscription.target, round.signal);
      const current = this.byUri.get(subscription.target.uri);
      if (round.signal.aborted || current !== subscription || fingerprint === subscription.fingerprint) continue;
      subscription.fingerprint = fingerprint;
      this.options.notify(subscription.target.uri);
    }
    if (this.round === round) this.round = undefined;
    this.schedule();
  }
}
