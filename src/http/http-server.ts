import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Duplex } from 'node:stream';
import type { StopMode } from '../mcp/mcp-server.js';
import { ErrorCode } from '../spec/error-codes.js';
import type { LevelLog } from '../spec/logging-levels.js';
import { HealthEndpoints, type ReadinessProbe } from './health-endpoints.js';
import { type Refusal, rawRefusal, refusal, sendEmpty, sendRefusal } from './http-replies.js';
import type { SessionOptions } from './http-session.js';
import type { HttpSettings } from './http-settings.js';
import { isLoopbackHost, type ListenAddress } from './listen-address.js';
import { McpEndpoint } from './mcp-endpoint.js';
import { BearerToken, checkHost, checkOrigin, corsHeaders, preflightHeaders } from './request-guards.js';
import { SessionManager } from './session-manager.js';

export interface HttpMcpServerOptions {
  readonly settings: HttpSettings;
  readonly session: Omit<SessionOptions, 'onEnded' | 'resumeGraceMs' | 'idleMs' | 'initMs'>;
  readonly readiness: ReadinessProbe;
  /** Diagnostics (stderr). */
  readonly log: LevelLog;
}

/**
 * What node:http refused before the request reached us: too slow (MCPBASH_HTTP_REQUEST_TIMEOUT_SECS)
 * 408, headers beyond its limit 431, anything else it could not parse 400.
 */
function clientErrorRefusal(error: NodeJS.ErrnoException): Refusal {
  if (error.code === 'ERR_HTTP_REQUEST_TIMEOUT') {
    return refusal(408, 'Request Timeout: the request did not arrive within MCPBASH_HTTP_REQUEST_TIMEOUT_SECS');
  }
  if (error.code === 'HPE_HEADER_OVERFLOW') return refusal(431, 'Request Header Fields Too Large');
  return refusal(400, 'Bad Request: malformed HTTP request');
}

/** TCP keepalive on long-lived streams: a peer that vanished is noticed. */
const SOCKET_KEEPALIVE_MS = 30_000;

/**
 * `mcp-bash serve --http`: node:http (decision D202) serving the MCP endpoint, `/healthz`
 * and `/readyz`. Every request to the endpoint passes the guards in order - Host (on a
 * loopback listener), Origin, the bearer token - before it reaches a session. Slow clients
 * are cut by the request timeout (headers and body), bodies by their size cap.
 */
export class HttpMcpServer {
  private readonly http: Server;
  private readonly sessions: SessionManager;
  private readonly endpoint: McpEndpoint;
  private readonly health: HealthEndpoints;
  private readonly token: BearerToken | undefined;
  private draining = false;
  /** The last request of each connection, with its response (see answeredEarly). */
  private readonly current = new WeakMap<Duplex, { req: IncomingMessage; res: ServerResponse }>();
  private stopping: Promise<void> | undefined;

  constructor(private readonly options: HttpMcpServerOptions) {
    const { settings } = options;
    this.sessions = new SessionManager(
      {
        ...options.session,
        resumeGraceMs: settings.resumeGraceMs,
        idleMs: settings.sessionIdleMs,
        initMs: settings.requestTimeoutMs,
      },
      settings.maxSessions,
    );
    this.endpoint = new McpEndpoint({
      sessions: this.sessions,
      stateless: settings.stateless,
      maxBodyBytes: settings.maxBodyBytes,
    });
    this.health = new HealthEndpoints(options.readiness, () => this.draining);
    this.token = settings.token === undefined ? undefined : new BearerToken(settings.token);
    this.http = createServer({
      requestTimeout: settings.requestTimeoutMs,
      headersTimeout: settings.requestTimeoutMs,
      // How often unfinished requests are checked against those timeouts.
      connectionsCheckingInterval: Math.min(1000, settings.requestTimeoutMs),
    });
    this.http.on('request', (req, res) => {
      this.current.set(req.socket, { req, res });
      void this.route(req, res);
    });
    this.http.on('connection', (socket) => socket.setKeepAlive(true, SOCKET_KEEPALIVE_MS));
    this.http.on('clientError', (error: NodeJS.ErrnoException, socket) => {
      if (socket.writable && !this.answeredEarly(socket)) socket.end(rawRefusal(clientErrorRefusal(error)));
      else socket.destroy();
    });
  }

  /** Starts listening; resolves with the address (the port picked when 0 was asked). */
  listen(): Promise<ListenAddress> {
    const { host, port } = this.options.settings.listen;
    return new Promise((resolve, reject) => {
      this.http.once('error', reject);
      this.http.listen({ host, port }, () => {
        this.http.off('error', reject);
        resolve({ host, port: (this.http.address() as AddressInfo).port });
      });
    });
  }

  /**
   * Stops: the listener stays open while running requests finish within
   * MCPBASH_SHUTDOWN_TIMEOUT (drain) or are cancelled now (abort, which also cuts short a
   * drain in progress), so that what still reaches the server - a load balancer that has not
   * yet taken it out - gets an answer: new MCP requests 503 with Retry-After, `/readyz` 503,
   * `/healthz` 200. Then every session has ended; the listener and every connection close.
   */
  shutdown(mode: StopMode): Promise<void> {
    if (this.stopping) {
      if (mode === 'abort') void this.sessions.endAll('abort');
      return this.stopping;
    }
    this.draining = true;
    this.stopping = this.sessions.endAll(mode).then(() => this.close());
    return this.stopping;
  }

  private close(): Promise<void> {
    return new Promise((resolve) => {
      this.http.close(() => resolve());
      this.http.closeAllConnections();
    });
  }

  /**
   * Whether the connection's request was answered before its body arrived (a refusal that
   * did not need it): when the body then times out, a second answer would be read as the
   * answer to a request the client has not sent, so the connection is just closed.
   */
  private answeredEarly(socket: Duplex): boolean {
    const last = this.current.get(socket);
    return last !== undefined && !last.req.complete && last.res.headersSent;
  }

  /** The last-resort guard: a bug costs one request a 500, never the server. */
  private async route(req: IncomingMessage, res: ServerResponse): Promise<void> {
    try {
      await this.dispatch(req, res);
    } catch (error) {
      this.options.log('error', `${req.method} ${req.url}: ${(error as Error).stack ?? String(error)}`);
      sendRefusal(res, refusal(500, 'Internal Server Error', undefined, -32603));
    }
  }

  private async dispatch(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const { settings } = this.options;
    const path = new URL(req.url ?? '/', 'http://server').pathname;
    // A draining server answers once per connection: the client's next request opens a new
    // one, which a load balancer that has caught up sends elsewhere.
    if (this.draining) res.setHeader('Connection', 'close');
    const hostRefused = checkHost(req, isLoopbackHost(settings.listen.host));
    if (hostRefused) return sendRefusal(res, hostRefused);
    if (await this.health.handle(path, req, res)) return;
    if (path !== settings.path)
      return sendRefusal(res, refusal(404, `Not Found: the MCP endpoint is ${settings.path}`));
    const originRefused = checkOrigin(req, settings.allowedOrigins);
    if (originRefused) return sendRefusal(res, originRefused);
    if (req.method === 'OPTIONS') return sendEmpty(res, 204, preflightHeaders(req));
    const cors = corsHeaders(req);
    const unauthorized = this.token?.check(req);
    if (unauthorized) return sendRefusal(res, unauthorized, cors);
    if (this.draining && req.method !== 'DELETE') {
      // 1.x's code for new work once the server is stopping (D223), not the transport's -32000.
      return sendRefusal(
        res,
        refusal(
          503,
          'Service Unavailable: the server is shutting down',
          { 'Retry-After': '5' },
          ErrorCode.ServerShuttingDown,
        ),
        cors,
      );
    }
    await this.endpoint.handle(req, res, cors);
  }
}
