/** A complete input line, or one that outgrew the limit (only its start is kept). */
export type SplitEvent =
  | { readonly kind: 'line'; readonly bytes: Buffer }
  | { readonly kind: 'oversized'; readonly prefix: Buffer; readonly size: number };

/** How much of an oversized line is kept: enough to find its id and answer it. */
const OVERSIZED_PREFIX_BYTES = 4096;

/**
 * Splits a byte stream into newline-terminated lines with bounded memory: a line longer than
 * `maxLineBytes` is not buffered but counted and reported once it ends, so one huge message
 * costs a reply, not the server.
 */
export class LineSplitter {
  private chunks: Buffer[] = [];
  private length = 0;
  private oversized: { prefix: Buffer; size: number } | undefined;

  constructor(private readonly maxLineBytes: number) {}

  /** Feeds a chunk and returns the lines it completed. */
  push(chunk: Buffer): SplitEvent[] {
    const events: SplitEvent[] = [];
    let start = 0;
    for (;;) {
      const newline = chunk.indexOf(0x0a, start);
      this.append(newline === -1 ? chunk.subarray(start) : chunk.subarray(start, newline));
      if (newline === -1) break;
      events.push(this.takeLine());
      start = newline + 1;
    }
    return events;
  }

  /** Ends the stream: a last line without a newline still counts. */
  end(): SplitEvent[] {
    return this.length > 0 || this.oversized ? [this.takeLine()] : [];
  }

  private append(piece: Buffer): void {
    if (piece.length === 0) return;
    if (this.oversized) {
      this.oversized.size += piece.length;
      return;
    }
    if (this.length + piece.length > this.maxLineBytes) {
      const prefix = Buffer.concat([...this.chunks, piece.subarray(0, OVERSIZED_PREFIX_BYTES)]).subarray(
        0,
        OVERSIZED_PREFIX_BYTES,
      );
      this.oversized = { prefix: Buffer.from(prefix), size: this.length + piece.length };
      this.chunks = [];
      this.length = 0;
      return;
    }
    // Copy: the caller may reuse its buffer.
    this.chunks.push(Buffer.from(piece));
    this.length += piece.length;
  }

  private takeLine(): SplitEvent {
    if (this.oversized) {
      const event: SplitEvent = { kind: 'oversized', prefix: this.oversized.prefix, size: this.oversized.size };
      this.oversized = undefined;
      return event;
    }
    const bytes = this.chunks.length === 1 ? (this.chunks[0] as Buffer) : Buffer.concat(this.chunks);
    this.chunks = [];
    this.length = 0;
    return { kind: 'line', bytes };
  }
}
