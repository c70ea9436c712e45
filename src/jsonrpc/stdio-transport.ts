import type { Readable, Writable } from 'node:stream';
import { decodeFrame, LineSplitter } from './framing.js';
import type { Transport } from './transport.js';

/**
 * How much input is read ahead, unparsed, while the peer is behind: enough to notice the end
 * of input that usually follows (a client hanging up), bounded so a client that keeps writing
 * without reading holds no more than this; past it stdin pauses.
 */
const READ_AHEAD_BYTES = 1024 * 1024;

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
  /** Input read while the peer is behind, not yet parsed (see READ_AHEAD_BYTES). */
  private readAhead: Buffer[] = [];
  private readAheadBytes = 0;

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
      if (this.backlog) this.holdInput(bytes);
      else this.parse(bytes);
    });
    // What was read ahead was sent before the end: it is still served (the engine starts its
    // heavy work once the peer catches up, or the shutdown deadline stops it).
    this.input.once('end', () => {
      this.parseReadAhead(true);
      this.finishInput();
    });
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
   * The peer is behind (stdout's buffer is over its high-water mark): parse no more requests
   * until it catches up, so queued output stays bounded by the work already running. Input
   * is still read, up to READ_AHEAD_BYTES, so that its end (the client hanging up) is seen.
   */
  private holdInputUntilDrained(): void {
    this.backlog = new Promise((resolve) => {
      const caughtUp = () => {
        this.output.off('drain', caughtUp);
        this.output.off('close', caughtUp);
        this.backlog = undefined;
        this.parseReadAhead(false);
        if (!this.closed && this.readAheadBytes < READ_AHEAD_BYTES) this.input.resume();
        resolve();
      };
      this.output.on('drain', caughtUp);
      this.output.on('close', caughtUp);
    });
  }

  unsentBytes(): number {
    return this.output.writableLength;
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

  private holdInput(bytes: Buffer): void {
    this.readAhead.push(bytes);
    this.readAheadBytes += bytes.length;
    if (this.readAheadBytes >= READ_AHEAD_BYTES) this.input.pause();
  }

  /** Parses what was read ahead, in order: all of it at the end of input, else until the peer falls behind again. */
  private parseReadAhead(all: boolean): void {
    while (this.readAhead.length > 0 && !this.closed && (all || !this.backlog)) {
      const bytes = this.readAhead.shift() as Buffer;
      this.readAheadBytes -= bytes.length;
      this.parse(bytes);
    }
  }

  private parse(bytes: Buffer): void {
    for (const event of this.splitter.push(bytes)) this.emit(event);
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
