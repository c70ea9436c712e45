import { decodeFrame, type InboundFrame } from '../../src/jsonrpc/framing.js';
import type { Transport } from '../../src/jsonrpc/transport.js';

/** An in-memory transport: tests push frames in and read what the engine wrote. */
export class MemoryTransport implements Transport {
  onframe?: (frame: InboundFrame) => void;
  onclose?: () => void;
  readonly sent: unknown[] = [];
  /** What the engine wrote, as the exact lines. */
  readonly lines: string[] = [];
  private waiters: Array<{ test: (message: unknown) => boolean; resolve: (message: unknown) => void }> = [];

  start(): void {}

  send(json: string): void {
    this.lines.push(json);
    const message: unknown = JSON.parse(json);
    this.sent.push(message);
    this.waiters = this.waiters.filter((waiter) => {
      if (!waiter.test(message)) return true;
      waiter.resolve(message);
      return false;
    });
  }

  async close(): Promise<void> {}

  /** Delivers a parsed JSON value as if it had arrived on a line. */
  deliver(value: unknown): void {
    this.onframe?.({ kind: 'value', value });
  }

  /** Delivers a line of text through the real frame decoder. */
  deliverLine(text: string): void {
    const frame = decodeFrame({ kind: 'line', bytes: Buffer.from(text) }, 10_000_000);
    if (frame) this.onframe?.(frame);
  }

  /** Resolves with the first message (already sent or future) that passes `test`. */
  next(test: (message: unknown) => boolean, timeoutMs = 2000): Promise<unknown> {
    const found = this.sent.find(test);
    if (found !== undefined) return Promise.resolve(found);
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error('timed out waiting for a message')), timeoutMs);
      this.waiters.push({
        test,
        resolve: (message) => {
          clearTimeout(timer);
          resolve(message);
        },
      });
    });
  }

  response(id: unknown): Promise<Record<string, unknown>> {
    return this.next(
      (message) =>
        (message as { id?: unknown; method?: unknown }).id === id && !(message as { method?: unknown }).method,
    ) as Promise<Record<string, unknown>>;
  }
}
