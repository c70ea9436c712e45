import { ErrorCode } from '../spec/error-codes.js';
import { RpcError } from '../spec/rpc-error.js';
import type { EngineOptions } from './engine-options.js';
import type { HandlerRunner } from './handler-runner.js';
import type { InFlightRequests } from './in-flight-requests.js';
import { classifyMessage } from './message-kind.js';
import { type JsonRpcParams, type RequestId, serializeId } from './messages.js';
import type { MethodHandlers } from './method-handlers.js';
import type { OutgoingRequests } from './outgoing-requests.js';
import type { ResponseEncoder } from './response-encoder.js';
import { describeError, INTERNAL_ERROR, requestIdOf } from './thrown-errors.js';
import type { ReplyChannel } from './transport.js';

/** Receives a message's serialised response, or undefined when there is none to send. */
export type Responder = (json: string | undefined) => void;

/** The -32600 error for a message or batch that is not a request the engine can take. */
export function invalidRequest(detail: string): RpcError {
  return new RpcError(ErrorCode.InvalidRequest, 'Invalid Request', detail);
}

/** What routing needs from the engine. */
export interface MessageRouterParts {
  readonly handlers: MethodHandlers;
  readonly requests: InFlightRequests;
  readonly runner: HandlerRunner;
  readonly outgoing: OutgoingRequests;
  readonly encoder: ResponseEncoder;
  readonly options: Pick<EngineOptions, 'admit' | 'admitResponse' | 'log'>;
}

/**
 * Takes one message to where it belongs: a request past admission to its handler, a
 * notification to its handler, a response to the request of ours it answers; what is
 * invalid gets -32600 and what cannot be answered is logged.
 */
export class MessageRouter {
  constructor(private readonly parts: MessageRouterParts) {}

  /**
   * Routes one message; `respond` is called exactly once, with undefined when there is
   * nothing to answer. A bug met on the way costs only this message: a request gets a
   * -32603 reply (details on stderr) and the session goes on.
   */
  route(value: unknown, respond: Responder, channel: ReplyChannel): void {
    let answered = false;
    const once: Responder = (json) => {
      if (answered) return;
      answered = true;
      respond(json);
    };
    try {
      this.routeMessage(value, once, channel);
    } catch (error) {
      this.parts.options.log('error', `failed to handle a message: ${describeError(error)}`);
      const id = requestIdOf(value);
      once(id === undefined ? undefined : this.parts.encoder.error(id, INTERNAL_ERROR));
    }
  }

  private routeMessage(value: unknown, respond: Responder, channel: ReplyChannel): void {
    const message = classifyMessage(value);
    const { log } = this.parts.options;
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
        this.receiveResponse(message.id, message.message);
        break;
      case 'invalid':
        respond(this.parts.encoder.error(message.id, invalidRequest(message.detail).toJSON()));
        return;
    }
    respond(undefined);
  }

  private receiveResponse(id: RequestId, value: Record<string, unknown>): void {
    const { options, outgoing } = this.parts;
    if (options.admitResponse && !options.admitResponse(value)) return;
    // A late answer (after a timeout) or one never ours is harmless, so only noted (D26).
    if (!outgoing.settle(id, value))
      options.log('debug', `ignoring a response to unknown request id ${serializeId(id)}`);
  }

  private dispatchNotification(method: string, params: JsonRpcParams | undefined): void {
    const { options, handlers } = this.parts;
    const refusal = options.admit?.(method, 'notification', params);
    if (refusal) {
      options.log('debug', `dropped notification ${method}: ${refusal.message}`);
      return;
    }
    const handler = handlers.notification(method);
    if (!handler) return;
    try {
      handler(params, method);
    } catch (error) {
      options.log('error', `notification ${method} failed: ${describeError(error)}`);
    }
  }

  private dispatchRequest(
    id: RequestId | null,
    method: string,
    params: JsonRpcParams | undefined,
    respond: Responder,
    channel: ReplyChannel,
  ): void {
    const { options, handlers, encoder, requests, runner } = this.parts;
    const refusal = options.admit?.(method, 'request', params);
    if (refusal) {
      respond(encoder.error(id, refusal.toJSON(), method));
      return;
    }
    const registered = handlers.request(method);
    if (!registered) {
      respond(encoder.error(id, new RpcError(ErrorCode.MethodNotFound, 'Method not found', method).toJSON(), method));
      return;
    }
    const request = { id, method, params, registered, channel };
    if (!requests.start(id, method, (entry) => runner.run(request, entry), respond)) {
      const duplicate = `Duplicate request id ${serializeId(id)}: a request with this id is still running`;
      respond(encoder.error(id, invalidRequest(duplicate).toJSON()));
    }
  }
}
