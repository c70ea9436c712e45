import { createHash, timingSafeEqual } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import { isSupportedProtocolVersion, type ProtocolVersion } from '../mcp/protocol-versions.js';
import { type ExtraHeaders, type Refusal, refusal } from './http-replies.js';
import { isLoopbackHost } from './listen-address.js';

/** One header's value (the first, when repeated). */
export function header(req: IncomingMessage, name: string): string | undefined {
  const value = req.headers[name];
  return Array.isArray(value) ? value[0] : value;
}

/** The host name of a `Host` header or an origin's authority, without port or brackets. */
function hostName(authority: string): string {
  const bracketed = /^\[([^\]]+)\]/.exec(authority);
  if (bracketed) return bracketed[1] as string;
  return authority.split(':')[0] ?? '';
}

/**
 * The Origin guard against DNS rebinding (MCP transports, "Security Warning"): a request
 * without Origin (not a browser) passes; a browser's passes when its origin is loopback
 * (`http://localhost:*`, `http://127.0.0.1:*`, `http://[::1]:*`) or listed in
 * MCPBASH_HTTP_ALLOWED_ORIGINS (`*` allows any); any other gets 403.
 */
export function checkOrigin(req: IncomingMessage, allowed: readonly string[]): Refusal | undefined {
  const origin = header(req, 'origin');
  if (origin === undefined || allowed.includes('*')) return undefined;
  const normalised = origin.toLowerCase().replace(/\/+$/, '');
  if (allowed.some((entry) => entry.toLowerCase().replace(/\/+$/, '') === normalised)) return undefined;
  try {
    const url = new URL(normalised);
    if ((url.protocol === 'http:' || url.protocol === 'https:') && isLoopbackHost(url.hostname)) return undefined;
  } catch {
    // `null` (a sandboxed page, a file) and anything else unparsable: not allowed.
  }
  return refusal(403, `Forbidden: Origin ${origin} is not allowed (MCPBASH_HTTP_ALLOWED_ORIGINS)`);
}

/**
 * On a loopback listener, the Host must name loopback too: a page whose DNS name was
 * rebound to 127.0.0.1 sends its own name as Host, and is refused even without an Origin.
 */
export function checkHost(req: IncomingMessage, loopbackListener: boolean): Refusal | undefined {
  if (!loopbackListener) return undefined;
  const host = header(req, 'host');
  if (host !== undefined && isLoopbackHost(hostName(host))) return undefined;
  return refusal(403, `Forbidden: Host ${host ?? '(none)'} is not this loopback server`);
}

/** CORS answer headers for an allowed browser origin (none without Origin). */
export function corsHeaders(req: IncomingMessage): ExtraHeaders {
  const origin = header(req, 'origin');
  if (origin === undefined) return {};
  return {
    'Access-Control-Allow-Origin': origin,
    'Access-Control-Expose-Headers': 'Mcp-Session-Id, Mcp-Protocol-Version',
    Vary: 'Origin',
  };
}

/** The answer to a CORS preflight (OPTIONS) from an allowed origin. */
export function preflightHeaders(req: IncomingMessage): ExtraHeaders {
  return {
    ...corsHeaders(req),
    'Access-Control-Allow-Methods': 'GET, POST, DELETE, OPTIONS',
    'Access-Control-Allow-Headers':
      'Authorization, Content-Type, Accept, Mcp-Session-Id, Mcp-Protocol-Version, Last-Event-ID',
    'Access-Control-Max-Age': '600',
  };
}

function digest(text: string): Buffer {
  return createHash('sha256').update(text).digest();
}

/**
 * The bearer-token guard (MCPBASH_HTTP_TOKEN): `Authorization: Bearer <token>` on every
 * request to the endpoint. Both sides are hashed before the comparison, so it takes the
 * same time whatever the guess and its length.
 */
export class BearerToken {
  private readonly expected: Buffer;

  constructor(token: string) {
    this.expected = digest(token);
  }

  check(req: IncomingMessage): Refusal | undefined {
    const match = /^Bearer[ \t]+(\S+)[ \t]*$/i.exec(header(req, 'authorization') ?? '');
    if (match && timingSafeEqual(digest(match[1] as string), this.expected)) return undefined;
    const challenge = match ? 'Bearer realm="mcp-bash", error="invalid_token"' : 'Bearer realm="mcp-bash"';
    return refusal(401, match ? 'Unauthorized: invalid bearer token' : 'Unauthorized: bearer token required', {
      'WWW-Authenticate': challenge,
    });
  }
}

/** What the client's Accept header allows; no header (or `*\/*`) allows both. */
export function acceptedTypes(req: IncomingMessage): { json: boolean; sse: boolean } {
  const accept = header(req, 'accept');
  if (accept === undefined || accept.trim() === '') return { json: true, sse: true };
  const types = accept.split(',').map((part) => (part.split(';')[0] ?? '').trim().toLowerCase());
  const any = types.includes('*/*');
  return {
    json: any || types.includes('application/json') || types.includes('application/*'),
    sse: any || types.includes('text/event-stream') || types.includes('text/*'),
  };
}

/**
 * The MCP-Protocol-Version header: undefined when absent (the caller decides what that
 * means), a version we speak, or a 400 refusal naming the versions we do.
 */
export function protocolVersionHeader(
  req: IncomingMessage,
  supported: readonly string[],
): ProtocolVersion | undefined | Refusal {
  const value = header(req, 'mcp-protocol-version');
  if (value === undefined) return undefined;
  if (isSupportedProtocolVersion(value.trim())) return value.trim() as ProtocolVersion;
  return refusal(400, `Bad Request: unsupported MCP-Protocol-Version ${value} (supported: ${supported.join(', ')})`);
}
