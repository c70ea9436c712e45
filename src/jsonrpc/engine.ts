import { isObject } from '../json/objects.js';
import { ErrorCode } from '../spec/error-codes.js';
import type { LevelLog } from '../spec/logging-levels.js';
import { RpcError } from '../spec/rpc-error.js';
import { ConcurrencyLimiter } from './concurrency-limiter.js';
import type { InboundFrame } from './framing.js';
import {
  classifyMessage,
  invalidRequest,
  isRequestId,
  type JsonRpcParams,
  type RequestId,
  serializeId,
} from './messages.js';
import { type InFlight, InFlightRequests, type OutgoingRequestOptions, OutgoingRequests } from './requests.js';
import type { ReplyChannel, Transport } from './transport.js';
import { describeError, INTERNAL_ERROR, replyToThrown, Wire } from './wire.js';

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
   * Applies to every response whose method has no limit of its own (HandlerOptions, or
   * `maxResponseBytesByMethod`, e.g. lists, bounded by another setting).
   */
  readonly maxResponseBytes: number;
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
  readonly log: LevelLog;
}

/** What a request handler gets: its params, a cancellation signal, a way to notify the peer. */
export interface RequestContext<P = JsonRpcParams | undefined> {
  readonly id: RequestId | null;
  readonly method: string;
  /** The params as the method's parser returned them (the raw params when it has none). */
  readonly params: P;
  /** Aborted when the peer cancels the request or the session ends. */
  readonly signal: AbortSignal;
  /** Sends a notification while the request is open; dropped once it has settled. */
  notify(method: string, params?: object): void;
  /**
   * Sends a request to the peer on behalf of this one (an elicitation a tool needs to go
   * on): it travels where this request's answer will, and fails once the request has settled.
   */
  request(method: string, params: object | undefined, options: OutgoingRequestOptions): Promise<unknown>;
}

export type RequestHandler<P = JsonRpcParams | undefined> = (context: RequestContext<P>) => unknown;
export type NotificationHandler = (params: JsonRpcParams | undefined, method: string) => void;

/**
 * Turns a request's raw params into what its handler takes, or throws (an RpcError with
 * -32602 for params the method cannot use). It runs before the request waits for a slot.
 */
export type ParamsParser<P> = (params: JsonRpcParams | undefined) => P;

export interface HandlerOptions {
  /** Counts against the concurrency limit; for handlers that start processes. */
  readonly queued?: boolean;
  /** This method's response size cap (default: EngineOptions.maxResponseBytes). */
  readonly maxResponseBytes?: number;
}

/** Handler options with the params parser of the method. */
export interface ParsedHandlerOptions<P> extends HandlerOptions {
  readonly params: ParamsParser<P>;
}

/** A request method as registered: its handler, its options, and its params parser if any. */
interface RegisteredRequest {
  readonly handler: RequestHandler<unknown>;
  readonly options: HandlerOptions;
  readonly parse?: ParamsParser<unknown>;
}

/** One request to run: who asked what, and where what it causes travels. */
interface RequestToRun {
  readonly id: RequestId | null;
  readonly method: string;
  readonly registered: RegisteredRequest;
  readonly channel: ReplyChannel;
}

/** Receives a message's serialised response, or undefined when there is none to send. */
type Responder = (json: string | undefined) => void;

/** A responder (or a channel's end) that passes on its first call only. */
function first<T extends unknown[]>(pass: (...args: T) => void): (...args: T) => void {
  let called = false;
  return (...args) => {
    if (called) return;
    called = true;
    pass(...args);
  };
}

/**
 * A method-agnostic JSON-RPC 2.0 peer: takes each inbound frame (a message or a batch) to
 * its handler, runs handlers concurrently (the queued ones through a limiter, once the peer
 * has caught up on reading), answers each request exactly once (or never, when cancelled),
 * and correlates responses to the requests we send. The requests open both ways are in
 * `requests.ts`, serialising and writing in `wire.ts`.
 */
export class JsonRpcEngine {
  private readonly requestHandlers = new Map<string, RegisteredRequest>();
  private readonly notificationHandlers = new Map<string, NotificationHandler>();
  private readonly outgoing = new OutgoingRequests();
  private readonly limiter: ConcurrencyLimiter;
  private readonly requests: InFlightRequests;
  private readonly wire: Wire;

  constructor(
    private readonly transport: Transport,
    private readonly options: EngineOptions,
  ) {
    this.limiter = options.limiter ?? new ConcurrencyLimiter(options.maxConcurrent);
    this.requests = new InFlightRequests(options.log);
    this.wire = new Wire(transport, options.log, (method) => this.responseLimit(method));
    transport.onframe = (frame, reply) => this.receive(frame, reply ?? this.wire.transportChannel);
  }

  /** Registers (or replaces) a method; with `options.params`, the handler gets the parsed params. */
  setRequestHandler(method: string, handler: RequestHandler, options?: HandlerOptions): void;
  setRequestHandler<P>(method: string, handler: RequestHandler<P>, options: ParsedHandlerOptions<P>): void;
  setRequestHandler<P>(
    method: string,
    handler: RequestHandler<P>,
    options: HandlerOptions | ParsedHandlerOptions<P> = {},
  ): void {
    const parse = 'params' in options ? (options.params as ParamsParser<unknown>) : undefined;
    this.requestHandlers.set(method, {
      handler: handler as RequestHandler<unknown>,
      options,
      ...(parse ? { parse } : {}),
    });
  }

  setNotificationHandler(method: string, handler: NotificationHandler): void {
    this.notificationHandlers.set(method, handler);
  }

  start(): void {
    this.transport.start();
  }

  /**
   * Waits for a concurrency slot, as queued handlers do, for work the server starts on its
   * own (polling); the caller must call the returned release once.
   */
  acquireSlot(signal?: AbortSignal): Promise<() => void> {
    return this.limiter.acquire(signal);
  }

  /** Requests currently running or waiting for a slot. */
  get activeRequests(): number {
    return this.requests.size;
  }

  /**
   * Cancels a request from the peer: aborts its handler and suppresses its response.
   * Unknown or finished ids are ignored. Returns whether something was cancelled.
   */
  cancel(id: RequestId, reason = 'cancelled by the client'): boolean {
    return this.requests.cancel(id, reason);
  }

  notify(method: string, params?: object): void {
    this.wire.notify(method, params);
  }

  /** Sends a request to the peer and resolves with its result (rejects with RpcError on an error reply). */
  request(method: string, params: object | undefined, options: OutgoingRequestOptions): Promise<unknown> {
    return this.outgoing.start(method, params, options, (message) => this.wire.send(message));
  }

  /** Resolves once no request is running or queued, or after `timeoutMs`. */
  whenIdle(timeoutMs: number): Promise<void> {
    return this.requests.whenIdle(timeoutMs);
  }

  /**
   * Ends the session's work: aborts every request (their handlers stop their processes),
   * fails our pending requests, and waits up to `graceMs` for handlers to finish.
   */
  async shutdown(graceMs: number): Promise<void> {
    this.requests.abortAll();
    this.outgoing.close();
    await this.requests.settled(graceMs);
  }

  private responseLimit(method: string | undefined): number {
    if (method === undefined) return this.options.maxResponseBytes;
    return (
      this.requestHandlers.get(method)?.options.maxResponseBytes ??
      this.options.maxResponseBytesByMethod?.get(method) ??
      this.options.maxResponseBytes
    );
  }

  // ---- frames: what arrived on one line (or one POST), answered on its reply channel ----

  /**
   * The last-resort guard: nothing a peer sends may throw out of here and end the process.
   * The channel is ended exactly once, and nothing is sent on it after that.
   */
  private receive(frame: InboundFrame, channel: ReplyChannel): void {
    let ended = false;
    const once: ReplyChannel = {
      send: (json) => {
        if (!ended) channel.send(json);
      },
      end: first((json) => {
        ended = true;
        channel.end(json);
      }),
    };
    try {
      if (frame.kind === 'invalid') {
        // An id salvaged from broken text that names a request still running is not this
        // message's: answering under it would give that request a second answer.
        const id = frame.id !== null && this.requests.has(frame.id) ? null : frame.id;
        once.end(this.wire.error(id, frame.error.toJSON()));
      } else if (Array.isArray(frame.value)) this.receiveBatch(frame.value, once);
      else this.route(frame.value, (json) => once.end(json), once);
    } catch (error) {
      this.options.log('error', `failed to handle an incoming message: ${describeError(error)}`);
      once.end(undefined);
    }
  }

  /** A batch (JSON-RPC 2.0 §6): its replies go back together, as one array. */
  private receiveBatch(values: unknown[], channel: ReplyChannel): void {
    if (values.length === 0) {
      channel.end(this.wire.error(null, invalidRequest('Empty batch').toJSON()));
      return;
    }
    const refusal = this.options.batchRefusal?.();
    if (refusal) {
      channel.end(this.refuseBatch(values, refusal));
      return;
    }
    const replies = values.map(
      (value) => new Promise<string | undefined>((resolve) => this.route(value, resolve, channel)),
    );
    void Promise.all(replies).then((responses) => {
      const answered = responses.filter((json): json is string => json !== undefined);
      channel.end(answered.length > 0 ? `[${answered.join(',')}]` : undefined);
    });
  }

  /**
   * Answers every request of a refused batch with its own error, together as one array (as
   * an accepted batch would be, decision D27), so none of the client's requests stays
   * pending. Notifications and responses in it get nothing.
   */
  private refuseBatch(values: unknown[], refusal: string): string | undefined {
    const error = invalidRequest(refusal).toJSON();
    const replies: string[] = [];
    for (const value of values) {
      const message = classifyMessage(value);
      if (message.kind === 'request' || message.kind === 'invalid') replies.push(this.wire.error(message.id, error));
    }
    if (replies.length > 0) return `[${replies.join(',')}]`;
    this.options.log('debug', `dropped a refused batch of notifications and responses: ${refusal}`);
    return undefined;
  }

  // ---- messages: one request, notification or response to its place ----

  /**
   * Routes one message; `respond` is called exactly once, with undefined when there is
   * nothing to answer. A bug met on the way costs only this message: a request gets a
   * -32603 reply (details on stderr) and the session goes on.
   */
  private route(value: unknown, respond: Responder, channel: ReplyChannel): void {
    const once = first(respond);
    try {
      this.routeMessage(value, once, channel);
    } catch (error) {
      this.options.log('error', `failed to handle a message: ${describeError(error)}`);
      const isRequest = isObject(value) && typeof value.method === 'string' && 'id' in value;
      once(isRequest ? this.wire.error(isRequestId(value.id) ? value.id : null, INTERNAL_ERROR) : undefined);
    }
  }

  private routeMessage(value: unknown, respond: Responder, channel: ReplyChannel): void {
    const message = classifyMessage(value);
    const { log } = this.options;
    switch (message.kind) {
      case 'request':
        this.dispatchRequest(message.id, message.method, message.params, respond, channel);
        return;
      case 'notification':
        this.dispatchNotification(message.method, message.params);
        break;
      case 'malformed-notification':
        log('debug', `dropped a malformed notification ${JSON.stringify(message.method)}: ${message.problem}`);
        break;
      case 'unusable-response':
        log('debug', `ignored a response to ${serializeId(message.id as RequestId | null)}: ${message.problem}`);
        break;
      case 'response':
        if (this.options.admitResponse && !this.options.admitResponse(message.message)) break;
        // A late answer (after a timeout) or one never ours is harmless, so only noted (D26).
        if (!this.outgoing.settle(message.id, message.message))
          log('debug', `ignoring a response to unknown request id ${serializeId(message.id)}`);
        break;
      case 'invalid':
        respond(this.wire.error(message.id, invalidRequest(message.detail).toJSON()));
        return;
    }
    respond(undefined);
  }

  private dispatchNotification(method: string, params: JsonRpcParams | undefined): void {
    const refusal = this.options.admit?.(method, 'notification', params);
    if (refusal) {
      this.options.log('debug', `dropped notification ${method}: ${refusal.message}`);
      return;
    }
    try {
      this.notificationHandlers.get(method)?.(params, method);
    } catch (error) {
      this.options.log('error', `notification ${method} failed: ${describeError(error)}`);
    }
  }

  private dispatchRequest(
    id: RequestId | null,
    method: string,
    params: JsonRpcParams | undefined,
    respond: Responder,
    channel: ReplyChannel,
  ): void {
    const refusal = this.options.admit?.(method, 'request', params);
    if (refusal) {
      respond(this.wire.error(id, refusal.toJSON(), method));
      return;
    }
    const registered = this.requestHandlers.get(method);
    if (!registered) {
      respond(this.wire.error(id, new RpcError(ErrorCode.MethodNotFound, 'Method not found', method).toJSON(), method));
      return;
    }
    const request = { id, method, registered, channel };
    if (!this.requests.start(id, method, (entry) => this.run(request, params, entry), respond)) {
      const duplicate = `Duplicate request id ${serializeId(id)}: a request with this id is still running`;
      respond(this.wire.error(id, invalidRequest(duplicate).toJSON()));
    }
  }

  // ---- handlers: one request's handler to its serialised response ----

  /**
   * Parses the params, then runs the handler: at once, with the response known without
   * waiting when it returns a plain value, or (a queued method) once a concurrency slot is
   * free and the peer has caught up on reading. A cancelled request gets no response.
   */
  private run(
    request: RequestToRun,
    params: JsonRpcParams | undefined,
    entry: InFlight,
  ): string | undefined | Promise<string | undefined> {
    const { registered } = request;
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

  private async runQueued(request: RequestToRun, parsed: unknown, entry: InFlight): Promise<string | undefined> {
    let release: (() => void) | undefined;
    try {
      release = await this.limiter.acquire(entry.controller.signal);
      await this.peerCaughtUp(entry.controller.signal);
      return this.success(request, await request.registered.handler(this.context(request, parsed, entry)));
    } catch (error) {
      return this.failure(request, error, entry);
    } finally {
      release?.();
    }
  }

  private success(request: RequestToRun, result: unknown): string {
    return this.wire.success(request.id, result === undefined ? {} : result, request.method);
  }

  /** The error reply for what a handler threw; none for a cancelled request. */
  private failure(request: RequestToRun, error: unknown, entry: InFlight): string | undefined {
    if (entry.cancelled) return undefined;
    const reply = replyToThrown(error, request.method);
    if (reply.log) this.options.log('error', reply.log);
    return this.wire.error(request.id, reply.error, request.method);
  }

  /** The handler's view of its request; what it sends travels on the request's channel until it settles. */
  private context(request: RequestToRun, params: unknown, entry: InFlight): RequestContext<unknown> {
    const { channel } = request;
    return {
      id: request.id,
      method: request.method,
      params,
      signal: entry.controller.signal,
      notify: (method, notifyParams) => {
        if (entry.settled || entry.cancelled) return;
        this.wire.notify(method, notifyParams, channel);
      },
      request: (method, requestParams, options) => {
        if (entry.settled || entry.cancelled) return Promise.reject(new Error('the request has ended'));
        return this.outgoing.start(method, requestParams, options, (message) => this.wire.send(message, channel));
      },
    };
  }

  /** Waits while the peer is behind on reading (backpressure), or until the request is aborted. */
  private peerCaughtUp(signal: AbortSignal): Promise<void> {
    const writable = this.transport.whenWritable?.();
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
