import type { InboundFrame } from './framing.js';

/**
 * Where what the engine sends on behalf of one inbound frame goes, for transports that
 * answer on more than one channel (HTTP: the POST that carried the frame). Everything a
 * frame causes travels on its channel: the notifications and requests its handlers send
 * while they run (progress, logs, elicitation), then its answer. Without one (stdio), all
 * goes through {@link Transport.send}.
 */
export interface ReplyChannel {
  /** A notification or request sent on behalf of the frame while it is being handled. */
  send(json: string): void;
  /**
   * The frame's answer - one response, or a batch's array - or undefined when there is none
   * (only notifications and responses in it, or every request cancelled). Called once, last.
   */
  end(json: string | undefined): void;
}

/**
 * The seam between the JSON-RPC engine and the bytes: stdio in production, HTTP sessions
 * (src/http/), an in-memory pair in tests.
 */
export interface Transport {
  /** Called for every decoded input frame, in order, with its reply channel when it has one. */
  onframe?: (frame: InboundFrame, reply?: ReplyChannel) => void;
  /** Called once when the input ends (peer closed it). */
  onclose?: () => void;
  start(): void;
  /**
   * Writes one serialised payload (no newline inside) that belongs to no inbound frame
   * (and every payload, for a frame that came without a reply channel); never interleaved.
   */
  send(json: string): void;
  /**
   * Resolves when the peer has read what was sent so far, at once when nothing is waiting
   * (backpressure: the engine starts no new heavy work while the peer is behind).
   */
  whenWritable?(): Promise<void>;
  /** Bytes written but not yet taken by the peer, where the transport can tell (a flush's progress). */
  unsentBytes?(): number | undefined;
  /** Stops reading and resolves once every queued line has been written. */
  close(): Promise<void>;
}
