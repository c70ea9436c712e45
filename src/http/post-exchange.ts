import type { ServerResponse } from 'node:http';
import type { ReplyChannel } from '../jsonrpc/transport.js';
import type { EventStream } from './event-stream.js';
import { type ExtraHeaders, sendEmpty, sendJson } from './http-replies.js';

/** What the client's Accept allows. */
export interface Accepts {
  readonly json: boolean;
  readonly sse: boolean;
}

export interface ExchangeHooks {
  readonly accepts: Accepts;
  /** The answer's headers, read when they are sent (the session id exists by then). */
  headers(): ExtraHeaders;
  /** A new stream of the session for this POST's events (its disconnects are the session's to handle). */
  openStream(): EventStream;
  /** Where messages for this POST go when the client takes no stream (it accepts only JSON). */
  fallback(json: string): void;
  /** The client closed the connection before an answer it waited for as plain JSON. */
  onGone(): void;
  /** The exchange is over: answered, or its stream (if it took one) finished. */
  onEnd(stream: EventStream | undefined): void;
}

/**
 * The answer to one POST that carried requests (the engine's reply channel for its frame).
 * It waits: an answer ready before anything else is sent is one `application/json` body; the
 * first notification or request sent on the POST's behalf (progress, a log, elicitation)
 * turns it into an SSE stream that carries those, then the answer, and ends (MCP
 * Streamable HTTP, "Sending Messages to the Server" 5-6). A client that accepts only JSON
 * gets its answer as JSON and the rest on the session's own stream.
 */
export class PostExchange implements ReplyChannel {
  private state: 'waiting' | 'streaming' | 'done' = 'waiting';
  private stream: EventStream | undefined;

  constructor(
    private readonly res: ServerResponse,
    private readonly hooks: ExchangeHooks,
  ) {
    res.once('close', () => {
      if (this.state === 'waiting' && !res.writableFinished) this.hooks.onGone();
    });
  }

  /** Whether the answer is still to come. */
  get open(): boolean {
    return this.state !== 'done';
  }

  send(json: string): void {
    if (this.state === 'done') return;
    if (this.state === 'waiting' && !this.hooks.accepts.sse) {
      this.hooks.fallback(json);
      return;
    }
    this.startStream().push(json);
  }

  end(json: string | undefined): void {
    if (this.state === 'done') return;
    if (this.state === 'waiting') {
      // No answer (the request was cancelled): a POST that carried a request still gets an
      // event stream, which simply ends (Streamable HTTP: JSON or SSE, never a bare 202).
      if (json === undefined && this.hooks.accepts.sse) this.startStream();
      else if (json === undefined) sendEmpty(this.res, 202, this.hooks.headers());
      else if (this.hooks.accepts.json) sendJson(this.res, 200, json, this.hooks.headers());
      else this.startStream().push(json);
    } else if (json !== undefined) {
      this.stream?.push(json);
    }
    this.state = 'done';
    this.stream?.finish();
    this.hooks.onEnd(this.stream);
  }

  private startStream(): EventStream {
    if (!this.stream) {
      this.stream = this.hooks.openStream();
      this.state = 'streaming';
      this.stream.attach(this.res, this.hooks.headers());
    }
    return this.stream;
  }
}
