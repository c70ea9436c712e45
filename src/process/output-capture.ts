/** Collects a stream up to a byte cap; past the cap it only counts. */
export class StreamCapture {
  private readonly chunks: Buffer[] = [];
  private kept = 0;
  total = 0;
  overflow = false;

  constructor(private readonly maxBytes: number) {}

  /** Returns false once the stream has exceeded the cap. */
  push(chunk: Buffer): boolean {
    this.total += chunk.length;
    if (this.overflow) return false;
    if (this.kept + chunk.length > this.maxBytes) {
      this.overflow = true;
      this.chunks.length = 0;
      this.kept = 0;
      return false;
    }
    this.chunks.push(chunk);
    this.kept += chunk.length;
    return true;
  }

  buffer(): Buffer {
    return Buffer.concat(this.chunks, this.kept);
  }
}

const HEAD_BYTES = 1024;

/**
 * Keeps what results need of stderr without buffering all of it: the first line (for error
 * messages) and the last `tailBytes` (for `_meta.stderr`). Counts the total against a cap.
 */
export class TailCapture {
  private headBytes = Buffer.alloc(0);
  private tailChunks: Buffer[] = [];
  private tailLength = 0;
  total = 0;
  overflow = false;

  constructor(
    private readonly maxBytes: number,
    private readonly tailBytes: number,
  ) {}

  push(chunk: Buffer): boolean {
    this.total += chunk.length;
    if (this.headBytes.length < HEAD_BYTES) {
      this.headBytes = Buffer.concat([this.headBytes, chunk.subarray(0, HEAD_BYTES - this.headBytes.length)]);
    }
    this.tailChunks.push(chunk);
    this.tailLength += chunk.length;
    while (this.tailChunks.length > 1 && this.tailLength - (this.tailChunks[0] as Buffer).length >= this.tailBytes) {
      this.tailLength -= (this.tailChunks.shift() as Buffer).length;
    }
    if (this.total > this.maxBytes) this.overflow = true;
    return !this.overflow;
  }

  /** The first non-empty line. */
  head(): string {
    const text = this.headBytes.toString('utf8');
    return (
      text
        .split(/\r?\n/)
        .find((line) => line.trim() !== '')
        ?.trim() ?? ''
    );
  }

  /** The last `tailBytes` bytes, cut at a character boundary. */
  tail(): string {
    if (this.tailBytes <= 0) return '';
    const all = Buffer.concat(this.tailChunks, this.tailLength);
    let start = Math.max(0, all.length - this.tailBytes);
    // Do not start inside a multi-byte UTF-8 sequence.
    while (start < all.length && start > 0 && ((all[start] as number) & 0xc0) === 0x80) start += 1;
    return all.subarray(start).toString('utf8');
  }
}
