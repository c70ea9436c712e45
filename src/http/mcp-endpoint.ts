import type { IncomingMessage, ServerResponse } from 'node:http';
import {
  DEFAULT_PROTOCOL_VERSION,
  type ProtocolVersion,
  SUPPORTED_PROTOCOL_VERSIONS,
} from '../mcp/protocol-versions.js';
import { checkJsonContentType, readBody } from './body-reader.js';
import {
  type ExtraHeaders,
  type Refusal,
  refusal,
  SESSION_NOT_FOUND,
  sendEmpty,
  sendJson,
  sendRefusal,
} from './http-replies.js';
import type { HttpSession } from './http-session.js';
import { readPostedMessages } from './posted-messages.js';
import { acceptedTypes, header, protocolVersionHeader } from './request-guards.js';
import type { SessionManager } from './session-manager.js';

/** The version a request without MCP-Protocol-Version speaks when nothing else says (the spec's rule). */
const HEADERLESS_PROTOCOL_VERSION: ProtocolVersion = '2025-03-26';

function isRefusal(value: unknown): value is Refusal {
  return typeof value === 'object' && value !== null && 'status' in value && 'code' in value;
}

/**
 * A body that is JSON but no message the session accepts: 400 with a -32600 error without
 * an id (MCP 2025-11-25, Streamable HTTP, "Sending Messages to the Server" 3-4).
 */
function invalidInput(why: string): Refusal {
  return refusal(400, `Invalid Request: ${why}`, undefined, -32600);
}

export interface EndpointOptions {
  readonly sessions: SessionManager;
  readonly stateless: boolean;
  readonly maxBodyBytes: number;
}

/**
 * The MCP endpoint (MCP 2025-11-25, Streamable HTTP): POST carries one JSON-RPC message
 * (a batch for 2025-03-26), GET opens or resumes a session's stream, DELETE ends a session.
 * The server's guards (Host, Origin, token) have passed before anything here runs.
 */
export class McpEndpoint {
  constructor(private readonly options: EndpointOptions) {}

  async handle(req: IncomingMessage, res: ServerResponse, cors: ExtraHeaders): Promise<void> {
    switch (req.method) {
      case 'POST':
        return this.post(req, res, cors);
      case 'GET':
        return this.get(req, res, cors);
      case 'DELETE':
        return this.delete(req, res, cors);
      default:
        return sendRefusal(res, refusal(405, 'Method Not Allowed', { Allow: this.allowed() }), cors);
    }
  }

  private allowed(): string {
    return this.options.stateless ? 'POST, OPTIONS' : 'GET, POST, DELETE, OPTIONS';
  }

  private async post(req: IncomingMessage, res: ServerResponse, cors: ExtraHeaders): Promise<void> {
    const version = protocolVersionHeader(req, SUPPORTED_PROTOCOL_VERSIONS);
    const accepts = acceptedTypes(req);
    const early =
      (isRefusal(version) ? version : undefined) ??
      checkJsonContentType(req) ??
      (accepts.json || accepts.sse
        ? undefined
        : refusal(406, 'Not Acceptable: accept application/json and text/event-stream'));
    if (early) return sendRefusal(res, early, cors);
    const body = await readBody(req, this.options.maxBodyBytes);
    if (isRefusal(body)) {
      // The rest of an oversized body is not read: the connection goes once the answer is out.
      res.once('finish', () => req.socket.destroy());
      return sendRefusal(res, body, cors);
    }
    const posted = readPostedMessages(body, this.options.maxBodyBytes);
    if ('errorJson' in posted) return sendJson(res, 400, posted.errorJson, cors);
    if (posted.initialize && posted.count > 1) {
      return sendRefusal(
        res,
        refusal(400, 'Bad Request: initialize must be sent alone, not in a batch', undefined, -32600),
        cors,
      );
    }
    if (posted.unacceptable !== undefined) return sendRefusal(res, invalidInput(posted.unacceptable), cors);
    const headerVersion = isRefusal(version) ? undefined : version;
    let session: HttpSession | Refusal;
    if (this.options.stateless) {
      session = this.options.sessions.createStateless({
        protocolVersion: headerVersion ?? HEADERLESS_PROTOCOL_VERSION,
        initializing: posted.initialize,
      });
    } else {
      session = this.sessionFor(req, posted.initialize);
    }
    if (isRefusal(session)) return sendRefusal(res, session, cors);
    const batchRefused = posted.batch ? session.server.batchRefusal() : undefined;
    if (batchRefused !== undefined) {
      // Nothing was delivered: a session made for this POST (stateless, or its initialize) has no use.
      if (this.options.stateless || posted.initialize) void session.end('abort');
      return sendRefusal(res, invalidInput(batchRefused), cors);
    }
    session.post(res, {
      ...posted,
      accepts,
      headers: cors,
      protocolVersion: headerVersion ?? session.server.session.protocolVersion ?? DEFAULT_PROTOCOL_VERSION,
    });
  }

  private async get(req: IncomingMessage, res: ServerResponse, cors: ExtraHeaders): Promise<void> {
    const session = this.sessionOf(req, res, cors, 'a stateless server has no stream to open');
    if (!session) return;
    if (!acceptedTypes(req).sse)
      return sendRefusal(res, refusal(406, 'Not Acceptable: accept text/event-stream'), cors);
    const lastEventId = header(req, 'last-event-id');
    if (!session.get(res, lastEventId, cors)) {
      sendRefusal(res, refusal(400, `Bad Request: Last-Event-ID ${lastEventId} names no stream of this session`), cors);
    }
  }

  private async delete(req: IncomingMessage, res: ServerResponse, cors: ExtraHeaders): Promise<void> {
    const session = this.sessionOf(req, res, cors, 'a stateless server has no sessions');
    if (!session) return;
    // Answered once the session's requests are cancelled and their processes stopped.
    await session.end('abort');
    sendEmpty(res, 200, cors);
  }

  /**
   * The session a GET or DELETE names, after the checks both share (a stateless server has
   * none: 405 saying `why`; the version header); undefined once a refusal has been sent.
   */
  private sessionOf(
    req: IncomingMessage,
    res: ServerResponse,
    cors: ExtraHeaders,
    why: string,
  ): HttpSession | undefined {
    const refused = this.options.stateless
      ? refusal(405, `Method Not Allowed: ${why}`, { Allow: this.allowed() })
      : undefined;
    const version = refused ?? protocolVersionHeader(req, SUPPORTED_PROTOCOL_VERSIONS);
    if (isRefusal(version)) {
      sendRefusal(res, version, cors);
      return undefined;
    }
    const session = this.sessionFor(req, false);
    if (isRefusal(session)) {
      sendRefusal(res, session, cors);
      return undefined;
    }
    return session;
  }

  /**
   * The session a request names (Mcp-Session-Id): 400 without one, 404 for one that is
   * unknown or ended (the client then starts over with initialize). An initialize without
   * the header starts a new session (503 when MCPBASH_HTTP_MAX_SESSIONS are open).
   */
  private sessionFor(req: IncomingMessage, initialize: boolean): HttpSession | Refusal {
    const id = header(req, 'mcp-session-id');
    if (id === undefined) {
      if (!initialize) return refusal(400, 'Bad Request: Mcp-Session-Id header is required');
      return (
        this.options.sessions.create() ??
        refusal(503, 'Service Unavailable: too many sessions (MCPBASH_HTTP_MAX_SESSIONS)', { 'Retry-After': '5' })
      );
    }
    return (
      this.options.sessions.get(id) ??
      refusal(404, 'Not Found: no such session (it ended or never existed)', undefined, SESSION_NOT_FOUND)
    );
  }
}
