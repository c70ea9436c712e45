import type { ServerResponse } from 'node:http';
import type { InboundFrame } from '../jsonrpc/framing.js';
import type { RequestId } from '../jsonrpc/messages.js';
import type { ReplyChannel } from '../jsonrpc/transport.js';
import type { McpServer, StopMode } from '../mcp/mcp-server.js';
import type { ProtocolVersion } from '../mcp/protocol-versions.js';
import type { LevelLog } from '../spec/logging-levels.js';
import { type ExtraHeaders, sendEmpty } from './http-replies.js';
import { type Accepts, PostExchange } from './post-exchange.js';
import type { SessionFactory, StatelessStart } from './session-factory.js';
import { sessionLogId } from './session-log-id.js';
import { SessionTransport } from './session-transport.js';

/** What one POST carried, as far as answering it is concerned. */
export interface PostedFrame {
  readonly frame: InboundFrame;
  /** The ids of the requests in it (cancelled if the client goes away before their answer). */
  readonly requestIds: readonly (RequestId | null)[];
  /** Whether the engine will answer (requests, or invalid messages); otherwise 202 at once. */
  readonly expectsAnswer: boolean;
  readonly accepts: Accepts;
  /** CORS headers for the answer. */
  readonly headers: ExtraHeaders;
  /** The version the POST speaks (its header, else the session's). */
  readonly protocolVersion: ProtocolVersion;
}

export interface SessionOptions {
  readonly factory: SessionFactory;
  readonly resumeGraceMs: number;
  /** No connection and no request for this long ends the session (0: never). */
  readonly idleMs: number;
  /** A session not initialized (`notifications/initialized`) this long after it started ends. */
  readonly initMs: number;
  readonly log: LevelLog;
  /** The session has ended (whatever ended it). */
  readonly onEnded: (session: HttpSession) => void;
}

/** A reply channel for frames without requests: nothing to answer. */
const NO_REPLY: ReplyChannel = { send: () => {}, end: () => {} };

/** Priming events are understood from 2025-11-25 on (older clients choke on empty data). */
function primes(version: ProtocolVersion): boolean {
  return version >= '2025-11-25';
}

/**
 * One MCP session over HTTP (`id` set), or the one POST of a stateless server (no id): its
 * own MCP server and transport, the answers to its POSTs, its GET stream, its idle timer.
 * When it ends (DELETE, idle, the client's `exit`, shutdown), its running requests are
 * cancelled and their processes stopped by the server's stop.
 */
export class HttpSession {
  readonly server: McpServer;
  readonly transport: SessionTransport;
  private readonly ended: Promise<void>;
  private idleTimer: NodeJS.Timeout | undefined;
  private initTimer: NodeJS.Timeout | undefined;
  private over = false;

  constructor(
    readonly id: string | undefined,
    private readonly options: SessionOptions,
    stateless?: StatelessStart,
  ) {
    this.transport = new SessionTransport({
      stateful: id !== undefined,
      resumeGraceMs: options.resumeGraceMs,
      log: (message) => options.log('debug', message),
    });
    const running = options.factory.start(this.transport, stateless);
    this.server = running.server;
    this.ended = running.ended.then(() => {
      this.over = true;
      clearTimeout(this.idleTimer);
      clearTimeout(this.initTimer);
      options.onEnded(this);
    });
    this.touch();
    if (id !== undefined) this.limitInitialization();
  }

  /** Whether the session has ended (its id is then unknown). */
  get isOver(): boolean {
    return this.over;
  }

  /** Whether the client has not finished the handshake (`initialize`, then `notifications/initialized`). */
  get initializing(): boolean {
    const { phase } = this.server.session;
    return phase === 'new' || phase === 'initializing';
  }

  /** Answers one POST. */
  post(res: ServerResponse, posted: PostedFrame): void {
    this.touch();
    res.once('close', () => this.touch());
    const headers = this.headers(posted.headers);
    if (!posted.expectsAnswer) {
      this.transport.deliver(posted.frame, NO_REPLY);
      sendEmpty(res, 202, headers);
      if (this.id === undefined) void this.end('abort');
      return;
    }
    const giveUp = () => this.giveUp(posted.requestIds);
    const exchange = new PostExchange(res, {
      accepts: posted.accepts,
      headers: () => headers,
      openStream: () => this.transport.openStream(primes(posted.protocolVersion), giveUp),
      fallback: (json) => this.transport.send(json),
      onGone: giveUp,
      onEnd: (stream) => {
        if (stream) this.transport.retire(stream);
        this.touch();
        // An initialize that failed leaves nothing worth keeping; a stateless POST is done.
        if (this.id === undefined || this.server.session.phase === 'new') void this.end('abort');
      },
    });
    this.transport.deliver(posted.frame, exchange, posted.requestIds);
  }

  /** Serves a GET (the standalone stream, or a resume); false when `lastEventId` names no stream. */
  get(res: ServerResponse, lastEventId: string | undefined, cors: ExtraHeaders): boolean {
    this.touch();
    res.once('close', () => this.touch());
    return this.transport.attach(res, this.headers(cors), lastEventId);
  }

  /** Ends the session; resolves once its requests and processes are stopped. */
  async end(mode: StopMode): Promise<void> {
    this.transport.markEnding();
    await this.server.stop(0, mode);
    await this.ended;
  }

  private headers(extra: ExtraHeaders): ExtraHeaders {
    return this.id === undefined ? extra : { ...extra, 'Mcp-Session-Id': this.id };
  }

  /** The client is gone from a POST it was waiting on: its requests are cancelled (their tools stopped). */
  private giveUp(ids: readonly (RequestId | null)[]): void {
    for (const id of ids) {
      if (id !== null && this.server.engine.cancel(id, 'the client disconnected')) {
        this.options.log('debug', `request ${String(id)} cancelled: the client disconnected`);
      }
    }
  }

  /**
   * MCPBASH_HTTP_REQUEST_TIMEOUT_SECS bounds the handshake as it bounds a request: a bare
   * `initialize` would otherwise hold one of MCPBASH_HTTP_MAX_SESSIONS for the idle timeout.
   */
  private limitInitialization(): void {
    const { initMs } = this.options;
    this.initTimer = setTimeout(() => {
      if (this.over || !this.initializing) return;
      const seconds = initMs / 1000;
      const why = `not initialized within ${seconds}s; ended (MCPBASH_HTTP_REQUEST_TIMEOUT_SECS)`;
      this.options.log('info', `session ${sessionLogId(this.id)} ${why}`);
      void this.end('abort');
    }, initMs);
    this.initTimer.unref();
  }

  /** MCPBASH_HTTP_SESSION_IDLE_SECS: no connection and no request for that long ends the session. */
  private touch(): void {
    const { idleMs } = this.options;
    if (this.id === undefined || idleMs <= 0 || this.over) return;
    clearTimeout(this.idleTimer);
    this.idleTimer = setTimeout(() => {
      if (this.transport.busy || this.server.engine.activeRequests > 0) {
        this.touch();
        return;
      }
      this.options.log(
        'info',
        `session ${sessionLogId(this.id)} idle for ${idleMs / 1000}s; ended (MCPBASH_HTTP_SESSION_IDLE_SECS)`,
      );
      void this.end('abort');
    }, idleMs);
    this.idleTimer.unref();
  }
}
