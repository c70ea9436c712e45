import type { InboundFrame } from './frame-decoder.js';

/**
 * The seam between the JSON-RPC engine and the bytes: stdio in production, an in-memory
 * pair in tests.
 */
export interface Transport {
  /** Called for every decoded input line, in order. */
  onframe?: (frame: InboundFrame) => void;
  /** Called once when the input ends (peer closed it). */
  onclose?: () => void;
  start(): void;
  /** Writes one serialised payload (no newline inside) as one line; never interleaved. */
  send(json: string): void;
  /**
   * Resolves when the peer has read what was sent so far, at once when nothing is waiting
   * (backpressure: the engine starts no new heavy work while the peer is behind).
   */
  whenWritable?(): Promise<void>;
  /** Stops reading and resolves once every queued line has been written. */
  close(): Promise<void>;
}
