import type { ConcurrencyLimiter } from './concurrency-limiter.js';
import type { EngineLog } from './engine-options.js';
import type { InFlight } from './in-flight-requests.js';
import type { JsonRpcParams, RequestId } from './messages.js';
import type { RegisteredRequest, RequestContext } from './method-handlers.js';
import type { OutgoingRequests } from './outgoing-requests.js';
import type { PeerWriter } from './peer-writer.js';
import type { ResponseEncoder } from './response-encoder.js';
import { replyToThrown } from './thrown-errors.js';
import type { ReplyChannel, Transport } from './transport.js';

/** What running a handler needs from the engine. */
export interface HandlerRunnerParts {
  readonly transport: Transport;
  readonly limiter: ConcurrencyLimiter;
  readonly writer: PeerWriter;
  readonly outgoing: OutgoingRequests;
  readonly encoder: ResponseEncoder;
  readonly log: EngineLog;
}

/** One request to run: who asked what, and where what it causes travels. */
export interface RequestToRun {
  readonly id: RequestId | null;
  readonly method: string;
  readonly params: JsonRpcParams | undefined;
  readonly registered: RegisteredRequest;
  readonly channel: ReplyChannel;
}

/**
 * Runs one request's handler to its serialised response: parses the params, waits for a
 * concurrency slot and for the peer to catch up on reading (queued methods only), then
 * answers with the result or with the error the handler threw. A cancelled request gets
 * no response.
 */
export class HandlerRunner {
  constructor(private readonly parts: HandlerRunnerParts) {}

  /**
   * The response, at once when it is known without waiting (invalid params, a handler that
   * returns a plain value and is not queued), else a promise of it.
   */
  run(request: RequestToRun, entry: InFlight): string | undefined | Promise<string | undefined> {
    const { params, registered } = request;
    try {
      const parsed = registered.parse ? registered.parse(params) : params;
      if (registered.options.queued) return this.runQueued(request, parsed, entry);
      const returned = registered.handler(this.context(request, parsed, entry));
      if (!(returned instanceof Promise)) return this.success(request, returned);
      return returned
        .then((result) => this.success(request, result))
        .catch((error: unknown) => this.failure(request, error, entry));
    } catch (error) {
      return this.failure(request, error, entry);
    }
  }

  /** A queued method: waits for a concurrency slot and for the peer to catch up on reading first. */
  private async runQueued(request: RequestToRun, parsed: unknown, entry: InFlight): Promise<string | undefined> {
    let release: (() => void) | undefined;
    try {
      release = await this.parts.limiter.acquire(entry.controller.signal);
      await this.peerCaughtUp(entry.controller.signal);
      return this.success(request, await request.registered.handler(this.context(request, parsed, entry)));
    } catch (error) {
      return this.failure(request, error, entry);
    } finally {
      release?.();
    }
  }

  private success(request: RequestToRun, result: unknown): string {
    return this.parts.encoder.success(request.id, result === undefined ? {} : result, request.method);
  }

  /** The error reply for what a handler threw; none for a cancelled request. */
  private failure(request: RequestToRun, error: unknown, entry: InFlight): string | undefined {
    if (entry.cancelled) return undefined;
    const reply = replyToThrown(error, request.method);
    if (reply.log) this.parts.log('error', reply.log);
    return this.parts.encoder.error(request.id, reply.error, request.method);
  }

  /** The handler's view of its request; what it sends travels on the request's channel until it settles. */
  private context(request: RequestToRun, params: unknown, entry: InFlight): RequestContext<unknown> {
    const { writer, outgoing } = this.parts;
    const { channel } = request;
    return {
      id: request.id,
      method: request.method,
      params,
      signal: entry.controller.signal,
      notify: (method, notifyParams) => {
        if (entry.settled || entry.cancelled) return;
        writer.sendNotification(method, notifyParams, channel);
      },
      request: (method, requestParams, options) => {
        if (entry.settled || entry.cancelled) return Promise.reject(new Error('the request has ended'));
        return outgoing.start(method, requestParams, options, (message) => writer.send(message, channel));
      },
    };
  }

  /** Waits while the peer is behind on reading (backpressure), or until the request is aborted. */
  private peerCaughtUp(signal: AbortSignal): Promise<void> {
    const writable = this.parts.transport.whenWritable?.();
    if (!writable) return Promise.resolve();
    return new Promise((resolve, reject) => {
      const onAbort = () => reject(signal.reason);
      if (signal.aborted) {
        onAbort();
        return;
      }
      signal.addEventListener('abort', onAbort, { once: true });
      void writable.then(() => {
        signal.removeEventListener('abort', onAbort);
        resolve();
      });
    });
  }
}
