import type { ServerResponse } from 'node:http';
import type { InboundFrame } from '../jsonrpc/framing.js';
import type { RequestId } from '../jsonrpc/messages.js';
import type { ReplyChannel, Transport } from '../jsonrpc/transport.js';
import { serializeError } from '../jsonrpc/wire.js';
import { ErrorCode } from '../spec/error-codes.js';
import { EventStream } from './event-stream.js';
import type { ExtraHeaders } from './http-replies.js';

export interface SessionTransportOptions {
  /** Sessions keep a stream for unsolicited messages (GET) and make streams resumable. */
  readonly stateful: boolean;
  /**
   * How long a stream that lost its connection waits to be resumed before the requests it
   * answers are given up; also how long a finished stream stays available for a resume.
   */
  readonly resumeGraceMs: number;
  readonly log: (message: string) => void;
}

/**
 * The engine's transport for one HTTP session (or one stateless POST): frames arrive from
 * POSTs with the POST's reply channel; what belongs to no request - list_changed,
 * resources/updated, roots/list, the server's own log - goes to the session's standalone
 * stream, which a GET serves. It owns the session's SSE streams and finds the one a
 * Last-Event-ID names.
 */
export class SessionTransport implements Transport {
  onframe?: Transport['onframe'];
  onclose?: Transport['onclose'];
  /** The stream a GET serves (stateful sessions only). */
  readonly standalone: EventStream | undefined;
  private readonly streams = new Map<string, EventStream>();
  private readonly timers = new Set<NodeJS.Timeout>();
  /** Frames whose answer is still to come (their POST waits). */
  private readonly pending = new Set<ReplyChannel>();
  private nextKey = 1;
  private closed = false;
  /** The session is ending: requests it drops from now on are answered with an error. */
  private ending = false;

  constructor(private readonly options: SessionTransportOptions) {
    if (options.stateful) {
      this.standalone = new EventStream({ key: '0', resumable: true, prime: false });
      this.streams.set('0', this.standalone);
    }
  }

  start(): void {}

  send(json: string): void {
    if (this.standalone) this.standalone.push(json);
    else this.options.log('dropped a message no request asked for: a stateless server has no stream for it');
  }

  /**
   * Hands a POST's frame to the engine; `reply` answers the POST. Once the session is
   * ending, the requests it carries (`requestIds`) that get no answer are answered with an
   * error, so a client is not left waiting on a stream that ended with nothing.
   */
  deliver(frame: InboundFrame, reply: ReplyChannel, requestIds: readonly (RequestId | null)[] = []): void {
    const batch = frame.kind !== 'invalid' && Array.isArray(frame.value);
    if (this.closed) {
      reply.end(this.endedAnswer(requestIds, batch));
      return;
    }
    const tracked: ReplyChannel = {
      send: (json) => reply.send(json),
      end: (json) => {
        this.pending.delete(tracked);
        reply.end(json ?? (this.ending ? this.endedAnswer(requestIds, batch) : undefined));
      },
    };
    this.pending.add(tracked);
    this.onframe?.(frame, tracked);
  }

  /** Whether a client is connected or waiting for an answer. */
  get busy(): boolean {
    return this.pending.size > 0 || [...this.streams.values()].some((stream) => stream.connected);
  }

  /**
   * A new stream for one POST's events. When its connection breaks before it finished, it
   * waits `resumeGraceMs` for a resume (resumable streams), then `abandon` gives up the
   * requests it answers; a stream nobody can resume gives them up at once.
   */
  openStream(prime: boolean, abandon: () => void): EventStream {
    const key = String(this.nextKey++);
    const resumable = this.options.stateful;
    const stream: EventStream = new EventStream({
      key,
      resumable,
      prime: prime && resumable,
      onDisconnect: () => {
        if (!resumable || this.options.resumeGraceMs <= 0) {
          abandon();
          return;
        }
        this.after(this.options.resumeGraceMs, () => {
          if (!stream.connected && !stream.finished) abandon();
        });
      },
    });
    this.streams.set(key, stream);
    return stream;
  }

  /** Forgets a finished stream once nobody can still want to resume it. */
  retire(stream: EventStream): void {
    if (!this.streams.has(stream.key)) return;
    if (!this.options.stateful) {
      this.streams.delete(stream.key);
      return;
    }
    this.after(this.options.resumeGraceMs, () => {
      if (!stream.connected) this.streams.delete(stream.key);
    });
  }

  /**
   * Serves a GET: with `lastEventId`, the stream it names from after that event (false when
   * no stream of this session has it); without, the standalone stream.
   */
  attach(res: ServerResponse, headers: ExtraHeaders, lastEventId: string | undefined): boolean {
    if (lastEventId === undefined) {
      if (!this.standalone) return false;
      this.standalone.attach(res, headers);
      return true;
    }
    const key = /^(.+)-\d+$/.exec(lastEventId)?.[1];
    const stream = key === undefined ? undefined : this.streams.get(key);
    const seq = stream?.seqOf(lastEventId);
    if (!stream || seq === undefined) return false;
    stream.attach(res, headers, seq);
    return true;
  }

  /** The session is about to end (DELETE, idle, shutdown): see {@link deliver}. */
  markEnding(): void {
    this.ending = true;
  }

  /** Ends every stream and connection; POSTs still waiting are answered as the session ends. */
  close(): Promise<void> {
    this.ending = true;
    this.closed = true;
    for (const reply of [...this.pending]) reply.end(undefined);
    for (const timer of this.timers) clearTimeout(timer);
    this.timers.clear();
    for (const stream of this.streams.values()) stream.close();
    this.streams.clear();
    return Promise.resolve();
  }

  /** -32003 for each request (an array for a batch), or nothing when there were none. */
  private endedAnswer(requestIds: readonly (RequestId | null)[], batch: boolean): string | undefined {
    const error = { code: ErrorCode.ServerShuttingDown, message: 'The session ended before this request was answered' };
    const answers = requestIds.filter((id) => id !== null).map((id) => serializeError(id, error, 4096));
    if (answers.length === 0) return undefined;
    return batch ? `[${answers.join(',')}]` : answers[0];
  }

  private after(ms: number, action: () => void): void {
    const timer = setTimeout(() => {
      this.timers.delete(timer);
      action();
    }, ms);
    timer.unref();
    this.timers.add(timer);
  }
}
