import type { ServerResponse } from 'node:http';
import type { ExtraHeaders } from './http-replies.js';

/** How much of a stream is kept for replay: the newest events, within both bounds. */
export const REPLAY_MAX_EVENTS = 256;
const REPLAY_MAX_BYTES = 16 * 1024 * 1024;
/**
 * A client that reads its stream slower than events come has at most this much waiting in
 * the socket's buffer; beyond it the connection is dropped (what it missed stays kept for a
 * resume), so a stalled reader cannot make the server buffer without end.
 */
export const MAX_UNREAD_BYTES = 8 * 1024 * 1024;
/** A comment line this often keeps idle proxies from closing an open stream. */
const KEEPALIVE_MS = 15_000;
/**
 * The `retry` of a priming event: how long a client whose connection broke waits before it
 * resumes with Last-Event-ID (SSE reconnection time; well within MCPBASH_HTTP_RESUME_GRACE_SECS).
 */
const RECONNECT_MS = 1000;

export interface EventStreamOptions {
  /** Names the stream in event ids (`<key>-<n>`); unique within its session. */
  readonly key: string;
  /** Events carry ids and are kept for Last-Event-ID replay (sessions; not stateless). */
  readonly resumable: boolean;
  /** Send a priming event (an id, empty data) on each new connection: clients of 2025-11-25 on. */
  readonly prime: boolean;
  /** The live connection went away before the stream finished. */
  readonly onDisconnect?: () => void;
}

interface BufferedEvent {
  readonly seq: number;
  readonly text: string;
}

/** The SSE headers (proxies told not to buffer). */
function sseHeaders(extra: ExtraHeaders): ExtraHeaders {
  return {
    ...extra,
    'Content-Type': 'text/event-stream',
    'Cache-Control': 'no-cache, no-transform',
    'X-Accel-Buffering': 'no',
  };
}

/**
 * One SSE stream of a session: the answer stream of a POST, or the session's stream for
 * messages no request asked for (GET). Its events are numbered; the newest are kept (within
 * REPLAY_MAX_EVENTS and REPLAY_MAX_BYTES) so a client whose connection broke can resume with
 * Last-Event-ID, on this stream only. Events sent while no connection is attached wait for
 * the next one. At most one connection at a time: a newer one replaces an older.
 */
export class EventStream {
  private seq = 0;
  private readonly buffer: BufferedEvent[] = [];
  private bufferedBytes = 0;
  /** The newest event written to some connection. */
  private deliveredSeq = 0;
  private connection: ServerResponse | undefined;
  private keepalive: NodeJS.Timeout | undefined;
  private finishedFlag = false;

  constructor(private readonly options: EventStreamOptions) {}

  get key(): string {
    return this.options.key;
  }

  get connected(): boolean {
    return this.connection !== undefined;
  }

  get finished(): boolean {
    return this.finishedFlag;
  }

  /** The sequence number an event id of this stream names, or undefined when it names none. */
  seqOf(eventId: string): number | undefined {
    const match = /^(.+)-(\d+)$/.exec(eventId);
    if (!match || match[1] !== this.options.key) return undefined;
    const seq = Number(match[2]);
    return seq <= this.seq ? seq : undefined;
  }

  /**
   * Serves the stream on `res` (a new connection): the headers, a priming event, then the
   * events after `afterSeq` (default: those no connection has had yet), then live ones. A
   * finished stream ends the connection once it has caught up.
   */
  attach(res: ServerResponse, headers: ExtraHeaders, afterSeq = this.deliveredSeq): void {
    this.detach(true);
    res.writeHead(200, sseHeaders(headers));
    res.flushHeaders();
    this.connection = res;
    res.once('close', () => {
      if (this.connection !== res) return;
      this.detach(false);
      if (!this.finishedFlag) this.options.onDisconnect?.();
    });
    // Priming (2025-11-25): an id and no data, so the client can resume from here at once,
    // and the reconnection time for when the connection breaks.
    if (this.options.prime) res.write(`id: ${this.options.key}-${afterSeq}\nretry: ${RECONNECT_MS}\ndata: \n\n`);
    for (const event of this.buffer) if (event.seq > afterSeq) this.write(event);
    if (this.finishedFlag) {
      this.endConnection();
      return;
    }
    this.keepalive = setInterval(() => this.connection?.write(': keepalive\n\n'), KEEPALIVE_MS);
    this.keepalive.unref();
  }

  /** Sends one message (serialised JSON-RPC) as an event. */
  push(json: string): void {
    if (this.finishedFlag) return;
    this.seq += 1;
    const id = this.options.resumable ? `id: ${this.options.key}-${this.seq}\n` : '';
    const event = { seq: this.seq, text: `${id}event: message\ndata: ${json}\n\n` };
    if (this.options.resumable || !this.connection) this.keep(event);
    if (this.connection) this.write(event);
  }

  /** No more events: the connection ends after what was sent; what is kept stays for a resume. */
  finish(): void {
    if (this.finishedFlag) return;
    this.finishedFlag = true;
    this.endConnection();
  }

  /** Ends the stream and its connection, and forgets what was kept. */
  close(): void {
    this.finish();
    this.buffer.length = 0;
    this.bufferedBytes = 0;
  }

  private keep(event: BufferedEvent): void {
    this.buffer.push(event);
    this.bufferedBytes += event.text.length;
    while (
      this.buffer.length > 1 &&
      (this.buffer.length > REPLAY_MAX_EVENTS || this.bufferedBytes > REPLAY_MAX_BYTES)
    ) {
      const dropped = this.buffer.shift() as BufferedEvent;
      this.bufferedBytes -= dropped.text.length;
    }
  }

  private write(event: BufferedEvent): void {
    const res = this.connection;
    if (!res || res.destroyed) return;
    res.write(event.text);
    this.deliveredSeq = Math.max(this.deliveredSeq, event.seq);
    // Its 'close' detaches it and reports the disconnect, as for any broken connection.
    if (res.writableLength > MAX_UNREAD_BYTES) res.destroy();
  }

  private endConnection(): void {
    const res = this.connection;
    this.detach(true);
    res?.end();
  }

  /** Forgets the connection; `replaced`: we let go of it (it is ended by the caller or gone). */
  private detach(replaced: boolean): void {
    clearInterval(this.keepalive);
    this.keepalive = undefined;
    const res = this.connection;
    this.connection = undefined;
    if (replaced && res && !res.writableEnded) res.end();
  }
}
