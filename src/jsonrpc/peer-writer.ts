import { stringifyExact } from '../json/raw-number.js';
import type { EngineLog } from './engine-options.js';
import { describeError } from './thrown-errors.js';
import type { ReplyChannel, Transport } from './transport.js';

/**
 * Writes what the engine sends on its own (notifications, requests to the peer) to a
 * frame's reply channel or to the transport. A message that cannot be serialised is
 * dropped and logged, so one bad payload never ends the session.
 */
export class PeerWriter {
  constructor(
    private readonly transport: Transport,
    private readonly log: EngineLog,
  ) {}

  /** Frames without a channel of their own answer through the transport itself. */
  readonly transportChannel: ReplyChannel = {
    send: (json) => this.transport.send(json),
    end: (json) => {
      if (json !== undefined) this.transport.send(json);
    },
  };

  /** Sends one message: on `channel` when it belongs to an inbound frame, else on the transport. */
  send(payload: unknown, channel?: ReplyChannel): void {
    const json = this.serialize(payload);
    if (json === undefined) return;
    if (channel) channel.send(json);
    else this.transport.send(json);
  }

  /** Sends a notification; `params` is left out of the message when undefined. */
  sendNotification(method: string, params: object | undefined, channel?: ReplyChannel): void {
    this.send(params === undefined ? { jsonrpc: '2.0', method } : { jsonrpc: '2.0', method, params }, channel);
  }

  /**
   * Serialises a message; one that cannot be (too deep, cyclic) is dropped and logged. A
   * number the peer sent as a RawNumber (a progress token) goes back exactly as it was sent.
   */
  private serialize(payload: unknown): string | undefined {
    try {
      return stringifyExact(payload);
    } catch (error) {
      // A tool's log data, for instance, may be too deep or cyclic: drop it, keep serving.
      this.log('warning', `dropped an outgoing message that cannot be serialised: ${describeError(error)}`);
      return undefined;
    }
  }
}
