import { stringifyExact } from '../json/raw-number.js';
import { ErrorCode } from '../spec/error-codes.js';
import type { JsonRpcErrorObject } from '../spec/rpc-error.js';
import { RpcError } from '../spec/rpc-error.js';
import { ConcurrencyLimiter } from './concurrency-limiter.js';
import type { InboundFrame } from './frame-decoder.js';
import { classifyMessage } from './message-kind.js';
import { type JsonRpcParams, type RequestId, requestKey, serializeId } from './messages.js';
import { type OutgoingRequestOptions, OutgoingRequests } from './outgoing-requests.js';
import { RequestAborted } from './request-aborted.js';
import { serializeError, serializeSuccess } from './response-serializer.js';
import { describeError, INTERNAL_ERROR, replyToThrown, requestIdOf } from './thrown-errors.js';
import type { ReplyChannel, Transport } from './transport.js';

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

export type LogLevel = 'debug' | 'info' | 'warning' | 'error';

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
  readonly log: (level: LogLevel, message: string) => void;
}

interface InFlight {
  readonly controller: AbortController;
  settled: boolean;
  cancelled: boolean;
}

interface Registered<H> {
  readonly handler: H;
  readonly options: HandlerOptions;
  readonly parse?: ParamsParser<unknown>;
}

/** Receives a request's serialised response, or undefined when there is none to send. */
type Responder = (json: string | undefined) => void;

function invalidRequest(detail: string): RpcError {
  return new RpcError(ErrorCode.InvalidRequest, 'Invalid Request', detail);
}

/**
 * A method-agnostic JSON-RPC 2.0 peer: routes requests and notifications to handlers, runs
 * them concurrently (the heavy ones through a limiter), answers each request exactly once
 * (or never, when cancelled), and correlates responses to the requests we send.
 */
export class JsonRpcEngine {
  private readonly requestHandlers = new Map<string, Registered<RequestHandler<unknown>>>();
  private readonly notificationHandlers = new Map<string, NotificationHandler>();
  private readonly inFlight = new Map<string, InFlight>();
  private readonly running = new Set<Promise<void>>();
  private readonly outgoing = new OutgoingRequests();
  private readonly limiter: ConcurrencyLimiter;
  private idleWaiters: Array<() => void> = [];

  constructor(
    private readonly transport: Transport,
    private readonly options: EngineOptions,
  ) {
    this.limiter = options.limiter ?? new ConcurrencyLimiter(options.maxConcurrent);
    transport.onframe = (frame, reply) => this.receive(frame, reply ?? this.transportChannel);
  }

  /** Registers a method; with `options.params`, the handler gets the parsed params. */
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
    return this.inFlight.size;
  }

  /**
   * Cancels a request from the peer: aborts its handler and suppresses its response.
   * Unknown or finished ids are ignored. Returns whether something was cancelled.
   */
  cancel(id: RequestId, reason = 'cancelled by the client'): boolean {
    const entry = this.inFlight.get(requestKey(id));
    if (!entry || entry.settled || entry.cancelled) return false;
    entry.cancelled = true;
    entry.controller.abort(new RequestAborted('cancelled', reason));
    return true;
  }

  notify(method: string, params?: object): void {
    this.write(params === undefined ? { jsonrpc: '2.0', method } : { jsonrpc: '2.0', method, params });
  }

  /** Sends a request to the peer and resolves with its result (rejects with RpcError on an error reply). */
  request(method: string, params: object | undefined, options: OutgoingRequestOptions): Promise<unknown> {
    return this.outgoing.start(method, params, options, (message) => this.write(message));
  }

  /** Resolves once no request is running or queued, or after `timeoutMs`. */
  whenIdle(timeoutMs: number): Promise<void> {
    if (this.inFlight.size === 0) return Promise.resolve();
    return new Promise((resolve) => {
      const timer = setTimeout(done, timeoutMs);
      function done() {
        clearTimeout(timer);
        resolve();
      }
      this.idleWaiters.push(done);
    });
  }

  /**
   * Ends the session's work: aborts every request (their handlers stop their processes),
   * fails our pending requests, and waits up to `graceMs` for handlers to finish.
   */
  async shutdown(graceMs: number): Promise<void> {
    for (const entry of this.inFlight.values()) {
      entry.cancelled = true;
      entry.controller.abort(new RequestAborted('shutdown', 'Server shutting down'));
    }
    this.outgoing.close();
    const all = Promise.allSettled([...this.running]);
    let timer: NodeJS.Timeout | undefined;
    const grace = new Promise<void>((resolve) => {
      timer = setTimeout(resolve, graceMs);
    });
    await Promise.race([all, grace]);
    clearTimeout(timer);
  }

  /** Frames without a channel of their own answer through the transport itself. */
  private readonly transportChannel: ReplyChannel = {
    send: (json) => this.transport.send(json),
    end: (json) => {
      if (json !== undefined) this.transport.send(json);
    },
  };

  /**
   * Serialises a message; one that cannot be (too deep, cyclic) is dropped and logged. A
   * number the peer sent as a RawNumber (a progress token) goes back exactly as it was sent.
   */
  private serialize(payload: unknown): string | undefined {
    try {
      return stringifyExact(payload);
    } catch (error) {
      // A tool's log data, for instance, may be too deep or cyclic: drop it, keep serving.
      this.options.log('warning', `dropped an outgoing message that cannot be serialised: ${describeError(error)}`);
      return undefined;
    }
  }

  private write(payload: unknown, channel?: ReplyChannel): void {
    const json = this.serialize(payload);
    if (json === undefined) return;
    if (channel) channel.send(json);
    else this.transport.send(json);
  }

  /** The last-resort guard: nothing a peer sends may throw out of here and end the process. */
  private receive(frame: InboundFrame, channel: ReplyChannel): void {
    let ended = false;
    const once: ReplyChannel = {
      send: (json) => {
        if (!ended) channel.send(json);
      },
      end: (json) => {
        if (ended) return;
        ended = true;
        channel.end(json);
      },
    };
    try {
      this.receiveFrame(frame, once);
    } catch (error) {
      this.options.log('error', `failed to handle an incoming message: ${describeError(error)}`);
      once.end(undefined);
    }
  }

  private receiveFrame(frame: InboundFrame, channel: ReplyChannel): void {
    if (frame.kind === 'invalid') {
      channel.end(this.errorResponse(frame.id, frame.error.toJSON()));
      return;
    }
    if (Array.isArray(frame.value)) {
      this.receiveBatch(frame.value, channel);
      return;
    }
    this.receiveMessage(frame.value, (json) => channel.end(json), channel);
  }

  private receiveBatch(values: unknown[], channel: ReplyChannel): void {
    if (values.length === 0) {
      channel.end(this.errorResponse(null, invalidRequest('Empty batch').toJSON()));
      return;
    }
    const refusal = this.options.batchRefusal?.();
    if (refusal) {
      channel.end(this.refuseBatch(values, refusal));
      return;
    }
    // JSON-RPC 2.0 §6: the replies to a batch go back together, as one array.
    const replies = values.map(
      (value) =>
        new Promise<string | undefined>((resolve) => {
          this.receiveMessage(value, resolve, channel);
        }),
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
      if (message.kind === 'request' || message.kind === 'invalid') replies.push(this.errorResponse(message.id, error));
    }
    if (replies.length > 0) return `[${replies.join(',')}]`;
    this.options.log('debug', `dropped a refused batch of notifications and responses: ${refusal}`);
    return undefined;
  }

  /**
   * Routes one message; `respond` is called exactly once, with undefined when there is
   * nothing to answer. A bug met on the way costs only this message: a request gets a
   * -32603 reply (details on stderr) and the session goes on.
   */
  private receiveMessage(value: unknown, respond: Responder, channel: ReplyChannel): void {
    let answered = false;
    const once: Responder = (json) => {
      if (answered) return;
      answered = true;
      respond(json);
    };
    try {
      this.routeMessage(value, once, channel);
    } catch (error) {
      this.options.log('error', `failed to handle a message: ${describeError(error)}`);
      const id = requestIdOf(value);
      once(id === undefined ? undefined : this.errorResponse(id, INTERNAL_ERROR));
    }
  }

  private routeMessage(value: unknown, respond: Responder, channel: ReplyChannel): void {
    const message = classifyMessage(value);
    switch (message.kind) {
      case 'request':
        this.dispatchRequest(message.id, message.method, message.params, respond, channel);
        return;
      case 'notification':
        this.dispatchNotification(message.method, message.params);
        break;
      case 'malformed-notification':
        this.options.log(
          'debug',
          `dropped a malformed notification ${JSON.stringify(message.method)}: ${message.problem}`,
        );
        break;
      case 'unusable-response':
        this.options.log(
          'debug',
          `ignored a response to ${serializeId(message.id as RequestId | null)}: ${message.problem}`,
        );
        break;
      case 'response':
        this.receiveResponse(message.id, message.message);
        break;
      case 'invalid':
        respond(this.errorResponse(message.id, invalidRequest(message.detail).toJSON()));
        return;
    }
    respond(undefined);
  }

  private receiveResponse(id: RequestId, value: Record<string, unknown>): void {
    if (this.options.admitResponse && !this.options.admitResponse(value)) return;
    // A late answer (after a timeout) or one never ours is harmless, so only noted (D26).
    if (!this.outgoing.settle(id, value))
      this.options.log('debug', `ignoring a response to unknown request id ${serializeId(id)}`);
  }

  private dispatchNotification(method: string, params: JsonRpcParams | undefined): void {
    const refusal = this.options.admit?.(method, 'notification', params);
    if (refusal) {
      this.options.log('debug', `dropped notification ${method}: ${refusal.message}`);
      return;
    }
    const handler = this.notificationHandlers.get(method);
    if (!handler) return;
    try {
      handler(params, method);
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
      respond(this.errorResponse(id, refusal.toJSON(), method));
      return;
    }
    const registered = this.requestHandlers.get(method);
    if (!registered) {
      respond(
        this.errorResponse(id, new RpcError(ErrorCode.MethodNotFound, 'Method not found', method).toJSON(), method),
      );
      return;
    }
    const key = requestKey(id);
    if (this.inFlight.has(key)) {
      respond(
        this.errorResponse(
          id,
          invalidRequest(`Duplicate request id ${serializeId(id)}: a request with this id is still running`).toJSON(),
        ),
      );
      return;
    }
    const entry: InFlight = { controller: new AbortController(), settled: false, cancelled: false };
    this.inFlight.set(key, entry);
    const run = this.runHandler(id, method, params, registered, entry, channel)
      .then((response) => {
        entry.settled = true;
        this.inFlight.delete(key);
        this.running.delete(run);
        respond(entry.cancelled ? undefined : response);
        if (this.inFlight.size === 0) this.wakeIdleWaiters();
      })
      .catch((error: unknown) =>
        this.options.log('error', `${method}: failed to send the reply: ${describeError(error)}`),
      );
    this.running.add(run);
  }

  private async runHandler(
    id: RequestId | null,
    method: string,
    params: JsonRpcParams | undefined,
    registered: Registered<RequestHandler<unknown>>,
    entry: InFlight,
    channel: ReplyChannel,
  ): Promise<string | undefined> {
    let release: (() => void) | undefined;
    try {
      const parsed = registered.parse ? registered.parse(params) : params;
      if (registered.options.queued) {
        release = await this.limiter.acquire(entry.controller.signal);
        await this.peerCaughtUp(entry.controller.signal);
      }
      const context: RequestContext<unknown> = {
        id,
        method,
        params: parsed,
        signal: entry.controller.signal,
        notify: (notifyMethod, notifyParams) => {
          if (entry.settled || entry.cancelled) return;
          this.write(
            notifyParams === undefined
              ? { jsonrpc: '2.0', method: notifyMethod }
              : { jsonrpc: '2.0', method: notifyMethod, params: notifyParams },
            channel,
          );
        },
        request: (requestMethod, requestParams, requestOptions) => {
          if (entry.settled || entry.cancelled) return Promise.reject(new Error('the request has ended'));
          return this.outgoing.start(requestMethod, requestParams, requestOptions, (message) =>
            this.write(message, channel),
          );
        },
      };
      const result = await registered.handler(context);
      return serializeSuccess(id, result === undefined ? {} : result, this.responseLimit(method), this.reportOversize);
    } catch (error) {
      if (entry.cancelled) return undefined;
      const reply = replyToThrown(error, method);
      if (reply.log) this.options.log('error', reply.log);
      return this.errorResponse(id, reply.error, method);
    } finally {
      release?.();
    }
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

  private wakeIdleWaiters(): void {
    const waiters = this.idleWaiters;
    this.idleWaiters = [];
    for (const wake of waiters) wake();
  }

  private readonly reportOversize = (message: string): void => this.options.log('warning', message);

  private responseLimit(method: string | undefined): number {
    if (method === undefined) return this.options.maxResponseBytes;
    return (
      this.requestHandlers.get(method)?.options.maxResponseBytes ??
      this.options.maxResponseBytesByMethod?.get(method) ??
      this.options.maxResponseBytes
    );
  }

  private errorResponse(id: RequestId | null, error: JsonRpcErrorObject, method?: string): string {
    return serializeError(id, error, this.responseLimit(method), this.reportOversize);
  }
}
