import { ErrorCode } from '../spec/error-codes.js';
import { RpcError } from '../spec/rpc-error.js';
import { ConcurrencyLimiter } from './concurrency-limiter.js';
import type { EngineOptions } from './engine-options.js';
import type { InboundFrame } from './frame-decoder.js';
import { HandlerRunner } from './handler-runner.js';
import { InFlightRequests } from './in-flight-requests.js';
import { classifyMessage } from './message-kind.js';
import { type JsonRpcParams, type RequestId, serializeId } from './messages.js';
import {
  type HandlerOptions,
  MethodHandlers,
  type NotificationHandler,
  type ParsedHandlerOptions,
  type RequestHandler,
} from './method-handlers.js';
import { type OutgoingRequestOptions, OutgoingRequests } from './outgoing-requests.js';
import { PeerWriter } from './peer-writer.js';
import { ResponseEncoder } from './response-encoder.js';
import { describeError, INTERNAL_ERROR, requestIdOf } from './thrown-errors.js';
import type { ReplyChannel, Transport } from './transport.js';

// The engine's public types, importable from here as they always were.
export type { EngineOptions, LogLevel } from './engine-options.js';
export type {
  HandlerOptions,
  NotificationHandler,
  ParamsParser,
  ParsedHandlerOptions,
  RequestContext,
  RequestHandler,
} from './method-handlers.js';

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
  private readonly handlers = new MethodHandlers();
  private readonly outgoing = new OutgoingRequests();
  private readonly limiter: ConcurrencyLimiter;
  private readonly writer: PeerWriter;
  private readonly encoder: ResponseEncoder;
  private readonly requests: InFlightRequests;
  private readonly runner: HandlerRunner;

  constructor(
    private readonly transport: Transport,
    private readonly options: EngineOptions,
  ) {
    this.limiter = options.limiter ?? new ConcurrencyLimiter(options.maxConcurrent);
    this.writer = new PeerWriter(transport, options.log);
    this.encoder = new ResponseEncoder(this.handlers, options);
    this.requests = new InFlightRequests(options.log);
    this.runner = new HandlerRunner({
      transport,
      limiter: this.limiter,
      writer: this.writer,
      outgoing: this.outgoing,
      encoder: this.encoder,
      log: options.log,
    });
    transport.onframe = (frame, reply) => this.receive(frame, reply ?? this.writer.transportChannel);
  }

  /** Registers a method; with `options.params`, the handler gets the parsed params. */
  setRequestHandler(method: string, handler: RequestHandler, options?: HandlerOptions): void;
  setRequestHandler<P>(method: string, handler: RequestHandler<P>, options: ParsedHandlerOptions<P>): void;
  setRequestHandler<P>(
    method: string,
    handler: RequestHandler<P>,
    options: HandlerOptions | ParsedHandlerOptions<P> = {},
  ): void {
    this.handlers.setRequest(method, handler, options);
  }

  setNotificationHandler(method: string, handler: NotificationHandler): void {
    this.handlers.setNotification(method, handler);
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
    this.writer.sendNotification(method, params);
  }

  /** Sends a request to the peer and resolves with its result (rejects with RpcError on an error reply). */
  request(method: string, params: object | undefined, options: OutgoingRequestOptions): Promise<unknown> {
    return this.outgoing.start(method, params, options, (message) => this.writer.send(message));
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
      channel.end(this.encoder.error(frame.id, frame.error.toJSON()));
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
      channel.end(this.encoder.error(null, invalidRequest('Empty batch').toJSON()));
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
      if (message.kind === 'request' || message.kind === 'invalid') replies.push(this.encoder.error(message.id, error));
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
      once(id === undefined ? undefined : this.encoder.error(id, INTERNAL_ERROR));
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
        respond(this.encoder.error(message.id, invalidRequest(message.detail).toJSON()));
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
    const handler = this.handlers.notification(method);
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
      respond(this.encoder.error(id, refusal.toJSON(), method));
      return;
    }
    const registered = this.handlers.request(method);
    if (!registered) {
      respond(
        this.encoder.error(id, new RpcError(ErrorCode.MethodNotFound, 'Method not found', method).toJSON(), method),
      );
      return;
    }
    const request = { id, method, params, registered, channel };
    if (!this.requests.start(id, method, (entry) => this.runner.run(request, entry), respond)) {
      const duplicate = `Duplicate request id ${serializeId(id)}: a request with this id is still running`;
      respond(this.encoder.error(id, invalidRequest(duplicate).toJSON()));
    }
  }
}
