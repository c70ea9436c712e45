import type { Readable, Writable } from 'node:stream';
import { decodeFrame } from './frame-decoder.js';
import { LineSplitter } from './line-splitter.js';
import type { Transport } from './transport.js';

/**
 * Newline-delimited JSON over a pair of streams. This is the only writer of `output`: each
 * payload arrives serialised whole (JSON.stringify escapes newlines and lone surrogates) and
 * is written with one `write`, so lines never interleave and stdout carries nothing else.
 */
export class StdioTransport implements Transport {
  onframe?: Transport['onframe'];
  onclose?: Transport['onclose'];
  private readonly splitter: LineSplitter;
  private closed = false;
  /** Set while the peer reads slower than we write: settles on 'drain'. */
  private backlog: Promise<void> | undefined;

  constructor(
    private readonly input: Readable,
    private readonly output: Writable,
    private readonly maxLineBytes: number,
  ) {
    this.splitter = new LineSplitter(maxLineBytes);
  }

  start(): void {
    this.input.on('data', (chunk: Buffer | string) => {
      const bytes = typeof chunk === 'string' ? Buffer.from(chunk) : chunk;
      for (const event of this.splitter.push(bytes)) this.emit(event);
    });
    this.input.once('end', () => this.finishInput());
    this.input.once('error', () => this.finishInput());
    // A peer that vanished must not crash us with EPIPE: it just ends the session.
    this.output.on('error', () => this.finishInput());
  }

  send(json: string): void {
    if (this.output.destroyed || this.output.writableEnded) return;
    if (!this.output.write(`${json}\n`) && !this.backlog) this.holdInputUntilDrained();
  }

  whenWritable(): Promise<void> {
    return this.backlog ?? Promise.resolve();
  }

  /**
   * The peer is behind (stdout's buffer is over its high-water mark): stop reading requests
   * until it catches up, so queued output stays bounded by the work already running.
   */
  private holdInputUntilDrained(): void {
    this.input.pause();
    this.backlog = new Promise((resolve) => {
      const caughtUp = () => {
        this.output.off('drain', caughtUp);
        this.output.off('close', caughtUp);
        this.backlog = undefined;
        if (!this.closed) this.input.resume();
        resolve();
      };
      this.output.on('drain', caughtUp);
      this.output.on('close', caughtUp);
    });
  }

  close(): Promise<void> {
    this.closed = true;
    this.input.removeAllListeners('data');
    this.input.pause();
    // stdin is a pipe; destroying it releases the event loop once we are done.
    this.input.destroy();
    if (this.output.destroyed || this.output.writableEnded || this.output.writableLength === 0) {
      return Promise.resolve();
    }
    // Writes complete in order: an empty write's callback runs once all earlier ones flushed.
    return new Promise((resolve) => {
      this.output.once('error', () => resolve());
      this.output.write('', () => resolve());
    });
  }

  private emit(event: Parameters<typeof decodeFrame>[0]): void {
    const frame = decodeFrame(event, this.maxLineBytes);
    if (frame && !this.closed) this.onframe?.(frame);
  }

  private finishInput(): void {
    if (this.closed) return;
    for (const event of this.splitter.end()) this.emit(event);
    this.closed = true;
    this.onclose?.();
  }
}
