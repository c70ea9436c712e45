import { ConcurrencyLimiter } from './concurrency-limiter.js';
import type { EngineOptions } from './engine-options.js';
import { FrameReceiver } from './frame-receiver.js';
import { HandlerRunner } from './handler-runner.js';
import { InFlightRequests } from './in-flight-requests.js';
import { MessageRouter } from './message-router.js';
import type { RequestId } from './messages.js';
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
import type { Transport } from './transport.js';

// The engine's public types, importable from here as they always were.
export type { EngineOptions } from './engine-options.js';
export type {
  HandlerOptions,
  NotificationHandler,
  ParamsParser,
  ParsedHandlerOptions,
  RequestContext,
  RequestHandler,
} from './method-handlers.js';

/**
 * A method-agnostic JSON-RPC 2.0 peer: routes requests and notifications to handlers, runs
 * them concurrently (the heavy ones through a limiter), answers each request exactly once
 * (or never, when cancelled), and correlates responses to the requests we send.
 *
 * The work is split by concept: FrameReceiver (frames and batches), MessageRouter (one
 * message to its place), InFlightRequests (open requests, cancellation, idleness),
 * HandlerRunner (one handler to its response), ResponseEncoder (size limits), PeerWriter
 * (what we send on our own); this class wires them and is the layer's one entry point.
 */
export class JsonRpcEngine {
  private readonly handlers = new MethodHandlers();
  private readonly outgoing = new OutgoingRequests();
  private readonly limiter: ConcurrencyLimiter;
  private readonly writer: PeerWriter;
  private readonly requests: InFlightRequests;

  constructor(
    private readonly transport: Transport,
    options: EngineOptions,
  ) {
    this.limiter = options.limiter ?? new ConcurrencyLimiter(options.maxConcurrent);
    this.writer = new PeerWriter(transport, options.log);
    this.requests = new InFlightRequests(options.log);
    const encoder = new ResponseEncoder(this.handlers, options);
    const runner = new HandlerRunner({
      transport,
      limiter: this.limiter,
      writer: this.writer,
      outgoing: this.outgoing,
      encoder,
      log: options.log,
    });
    const router = new MessageRouter({
      handlers: this.handlers,
      requests: this.requests,
      runner,
      outgoing: this.outgoing,
      encoder,
      options,
    });
    const receiver = new FrameReceiver(router, encoder, options, this.requests);
    transport.onframe = (frame, reply) => receiver.receive(frame, reply ?? this.writer.transportChannel);
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
}
