import type { EngineOptions } from './engine-options.js';
import type { InboundFrame } from './frame-decoder.js';
import type { InFlightRequests } from './in-flight-requests.js';
import { classifyMessage } from './message-kind.js';
import { invalidRequest, type MessageRouter } from './message-router.js';
import type { ResponseEncoder } from './response-encoder.js';
import { describeError } from './thrown-errors.js';
import type { ReplyChannel } from './transport.js';

/**
 * Answers each inbound frame on its reply channel: an undecodable frame with its error, a
 * single message through the router, a batch (JSON-RPC 2.0 §6) with one array of its
 * replies, or, when the session refuses batches, with one error per request in it.
 */
export class FrameReceiver {
  constructor(
    private readonly router: MessageRouter,
    private readonly encoder: ResponseEncoder,
    private readonly options: Pick<EngineOptions, 'batchRefusal' | 'log'>,
    private readonly requests: Pick<InFlightRequests, 'has'>,
  ) {}

  /**
   * The last-resort guard: nothing a peer sends may throw out of here and end the process.
   * The channel is ended exactly once, and nothing is sent on it after that.
   */
  receive(frame: InboundFrame, channel: ReplyChannel): void {
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
      // An id salvaged from broken text that names a request still running is not this
      // message's: answering under it would give that request a second answer.
      const id = frame.id !== null && this.requests.has(frame.id) ? null : frame.id;
      channel.end(this.encoder.error(id, frame.error.toJSON()));
      return;
    }
    if (Array.isArray(frame.value)) {
      this.receiveBatch(frame.value, channel);
      return;
    }
    this.router.route(frame.value, (json) => channel.end(json), channel);
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
          this.router.route(value, resolve, channel);
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
}
