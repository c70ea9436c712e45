import type { JsonRpcParams, RequestId } from './messages.js';
import type { OutgoingRequestOptions } from './outgoing-requests.js';

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
export interface RegisteredRequest {
  readonly handler: RequestHandler<unknown>;
  readonly options: HandlerOptions;
  readonly parse?: ParamsParser<unknown>;
}

/** The methods an engine serves: one handler per request method and per notification method. */
export class MethodHandlers {
  private readonly requests = new Map<string, RegisteredRequest>();
  private readonly notifications = new Map<string, NotificationHandler>();

  /** Registers (or replaces) a request method; `options.params`, when present, is its parser. */
  setRequest<P>(method: string, handler: RequestHandler<P>, options: HandlerOptions | ParsedHandlerOptions<P>): void {
    const parse = 'params' in options ? (options.params as ParamsParser<unknown>) : undefined;
    this.requests.set(method, {
      handler: handler as RequestHandler<unknown>,
      options,
      ...(parse ? { parse } : {}),
    });
  }

  /** Registers (or replaces) a notification method. */
  setNotification(method: string, handler: NotificationHandler): void {
    this.notifications.set(method, handler);
  }

  request(method: string): RegisteredRequest | undefined {
    return this.requests.get(method);
  }

  notification(method: string): NotificationHandler | undefined {
    return this.notifications.get(method);
  }
}
