import { closeSync, openSync, writeSync } from 'node:fs';
import { RawNumber, stringifyExact } from '../../json/raw-number.js';
import type { InboundFrame } from '../../jsonrpc/framing.js';
import type { Transport } from '../../jsonrpc/transport.js';

const SECRET_KEY = /token|secret|passw(or)?d|authorization|api[-_]?key|cookie|credential|private[-_]?key/i;
/** Keys that match SECRET_KEY but hold nothing secret. */
const NOT_SECRET = new Set(['progressToken']);
const REDACTED = '[REDACTED]';

/**
 * A copy of a message with secrets replaced (best effort, as in 1.x): values under keys
 * that name tokens, passwords, keys or cookies, and `Bearer ...` strings anywhere.
 */
export function redactSecrets(value: unknown): unknown {
  if (typeof value === 'string') return value.replace(/\b(Bearer|Basic)\s+[A-Za-z0-9._~+/=-]+/g, `$1 ${REDACTED}`);
  if (Array.isArray(value)) return value.map(redactSecrets);
  if (typeof value !== 'object' || value === null || value instanceof RawNumber) return value;
  const out: Record<string, unknown> = {};
  for (const [key, item] of Object.entries(value)) {
    const secret = SECRET_KEY.test(key) && !NOT_SECRET.has(key) && item !== null && typeof item !== 'object';
    out[key] = secret ? REDACTED : redactSecrets(item);
  }
  return out;
}

/** `category|key|status` of one message, seen from the server (`in` from the client, `out` to it). */
function describe(message: unknown, direction: 'in' | 'out'): [string, string, string] {
  if (Array.isArray(message))
    return [direction === 'in' ? 'batch' : 'batch-response', '-', `${message.length} messages`];
  const m = (message ?? {}) as { id?: unknown; method?: unknown; error?: unknown };
  const id = m.id === undefined ? '-' : (stringifyExact(m.id) ?? '-');
  if (typeof m.method === 'string') {
    if (m.id === undefined) return [`notification-${direction}`, '-', m.method];
    return [direction === 'in' ? 'request' : 'server-request', id, m.method];
  }
  return [direction === 'out' ? 'response' : 'client-response', id, m.error === undefined ? 'ok' : 'error'];
}

/**
 * Wraps the stdio transport of `mcp-bash debug` (MCPBASH_DEBUG_PAYLOADS): every message in
 * and out is appended to `file` (mode 0600) as `epoch|category|key|status|payload`, with
 * secrets redacted. The messages themselves pass through untouched.
 */
export class PayloadLogTransport implements Transport {
  onframe?: Transport['onframe'];
  onclose?: Transport['onclose'];
  private fd: number | undefined;

  constructor(
    private readonly inner: Transport,
    file: string,
  ) {
    this.fd = openSync(file, 'a', 0o600);
  }

  start(): void {
    this.inner.onframe = (frame: InboundFrame) => {
      if (frame.kind === 'value') this.record(frame.value, 'in');
      else this.write('invalid', stringifyExact(frame.id) ?? 'null', String(frame.error.code), frame.error.message);
      this.onframe?.(frame);
    };
    this.inner.onclose = () => this.onclose?.();
    this.inner.start();
  }

  send(json: string): void {
    try {
      this.record(JSON.parse(json), 'out');
    } catch {
      this.write('response', '-', 'unparsed', json);
    }
    this.inner.send(json);
  }

  whenWritable(): Promise<void> {
    return this.inner.whenWritable?.() ?? Promise.resolve();
  }

  unsentBytes(): number | undefined {
    return this.inner.unsentBytes?.();
  }

  async close(): Promise<void> {
    await this.inner.close();
    if (this.fd !== undefined) closeSync(this.fd);
    this.fd = undefined;
  }

  private record(message: unknown, direction: 'in' | 'out'): void {
    const [category, key, status] = describe(message, direction);
    this.write(category, key, status, stringifyExact(redactSecrets(message)) ?? '');
  }

  private write(category: string, key: string, status: string, payload: string): void {
    if (this.fd === undefined) return;
    try {
      writeSync(this.fd, `${(Date.now() / 1000).toFixed(3)}|${category}|${key}|${status}|${payload}\n`);
    } catch {
      // A full disk must not take the session down; the log is a debugging aid.
    }
  }
}
