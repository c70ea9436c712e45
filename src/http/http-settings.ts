import type { SettingValues } from '../config/settings.js';
import { MIN_REMOTE_TOKEN_LENGTH } from '../mcp/remote-token.js';
import { isLoopbackHost, type ListenAddress, parseListenAddress } from './listen-address.js';

/** The settings of the table (src/config/settings/http.ts) an HTTP server reads. */
export type HttpValues = Pick<
  SettingValues,
  | 'MCPBASH_HTTP_LISTEN'
  | 'MCPBASH_HTTP_PATH'
  | 'MCPBASH_HTTP_TOKEN'
  | 'MCPBASH_HTTP_ALLOWED_ORIGINS'
  | 'MCPBASH_HTTP_STATELESS'
  | 'MCPBASH_HTTP_MAX_BODY_BYTES'
  | 'MCPBASH_HTTP_REQUEST_TIMEOUT_SECS'
  | 'MCPBASH_HTTP_SESSION_IDLE_SECS'
  | 'MCPBASH_HTTP_MAX_SESSIONS'
  | 'MCPBASH_HTTP_RESUME_GRACE_SECS'
  | 'MCPBASH_HTTP_TRUST_CLIENT_ROOTS'
>;

/** How `mcp-bash serve --http` serves: the command line first, then MCPBASH_HTTP_* (docs/ENV.md). */
export interface HttpSettings {
  readonly listen: ListenAddress;
  /** The MCP endpoint (MCPBASH_HTTP_PATH, `--path`; default /mcp). */
  readonly path: string;
  /** `--stateless` / MCPBASH_HTTP_STATELESS: no sessions, each POST stands alone. */
  readonly stateless: boolean;
  /** The bearer token every request to the endpoint must carry (MCPBASH_HTTP_TOKEN). */
  readonly token: string | undefined;
  /** Origins allowed besides loopback ones (MCPBASH_HTTP_ALLOWED_ORIGINS; `*` allows any). */
  readonly allowedOrigins: readonly string[];
  /** A larger request body is refused with 413 (MCPBASH_HTTP_MAX_BODY_BYTES). */
  readonly maxBodyBytes: number;
  /** Headers and body must arrive within this (MCPBASH_HTTP_REQUEST_TIMEOUT_SECS): slow clients. */
  readonly requestTimeoutMs: number;
  /** A session with no connection and no running request for this long ends (0: never). */
  readonly sessionIdleMs: number;
  /** Sessions at once (MCPBASH_HTTP_MAX_SESSIONS); an initialize beyond gets 503. */
  readonly maxSessions: number;
  /**
   * How long a request whose stream lost its connection waits for the client to resume it
   * (GET with Last-Event-ID) before it is cancelled (MCPBASH_HTTP_RESUME_GRACE_SECS).
   */
  readonly resumeGraceMs: number;
  /** A client's roots widen what the server reads, as over stdio (MCPBASH_HTTP_TRUST_CLIENT_ROOTS, D289). */
  readonly trustClientRoots: boolean;
}

/** What the command line says (undefined: not given). */
export interface HttpFlags {
  readonly http?: string;
  readonly path?: string;
  readonly stateless?: boolean;
  readonly insecure?: boolean;
}

/** The shortest accepted token: MCPBASH_REMOTE_TOKEN's, guessing must be as hopeless. */
const MIN_TOKEN_LENGTH = MIN_REMOTE_TOKEN_LENGTH;

/** Paths the server answers itself (health probes) cannot be the MCP endpoint. */
const RESERVED_PATHS = new Set(['/healthz', '/readyz']);

/** Where to listen: `--http`, else MCPBASH_HTTP_LISTEN; undefined means stdio. */
export function httpListenValue(flags: HttpFlags, values: Pick<HttpValues, 'MCPBASH_HTTP_LISTEN'>): string | undefined {
  return flags.http ?? values.MCPBASH_HTTP_LISTEN;
}

/** Why the settings cannot be served, and what to do about it. */
export interface SettingsProblem {
  readonly problem: string;
  readonly hint?: string;
}

const TOKEN_HINT = 'Set MCPBASH_HTTP_TOKEN to a random secret (e.g. `openssl rand -hex 32`)';

/**
 * The settings of an HTTP server, or the reason it must not start: a malformed address or
 * path, a token too short, or without a token a listener beyond loopback or an Origin allow
 * list of `*` (any web page could call it), unless `--insecure`: decision D203.
 */
export function resolveHttpSettings(
  listenValue: string,
  flags: HttpFlags,
  values: HttpValues,
): HttpSettings | SettingsProblem {
  const listen = parseListenAddress(listenValue);
  if (typeof listen === 'string') return { problem: listen };
  const path = flags.path ?? values.MCPBASH_HTTP_PATH;
  if (!/^\/[A-Za-z0-9._~!$&'()*+,;=:@/-]*$/.test(path) || RESERVED_PATHS.has(path)) {
    return {
      problem: `the endpoint path "${path}" must start with / and be a URL path other than /healthz and /readyz`,
    };
  }
  const token = values.MCPBASH_HTTP_TOKEN;
  if (token !== undefined && token.length < MIN_TOKEN_LENGTH) {
    return {
      problem: `MCPBASH_HTTP_TOKEN is ${token.length} characters long; it needs at least ${MIN_TOKEN_LENGTH}`,
      hint: `${TOKEN_HINT}.`,
    };
  }
  if (token === undefined && !isLoopbackHost(listen.host) && flags.insecure !== true) {
    return {
      problem:
        `refusing to listen on ${listen.host} without MCPBASH_HTTP_TOKEN: anyone who can reach it could run ` +
        `the project's tools`,
      hint: `${TOKEN_HINT}, or pass --insecure when something in front of the server authenticates clients.`,
    };
  }
  if (token === undefined && values.MCPBASH_HTTP_ALLOWED_ORIGINS.includes('*') && flags.insecure !== true) {
    return {
      problem:
        "refusing MCPBASH_HTTP_ALLOWED_ORIGINS='*' without MCPBASH_HTTP_TOKEN: any web page the user opens could " +
        "run the project's tools",
      hint:
        `List the origins that may connect instead of *, ${TOKEN_HINT.replace('Set', 'set')}, or pass --insecure ` +
        `when something in front of the server authenticates clients.`,
    };
  }
  return {
    listen,
    path,
    stateless: flags.stateless === true || values.MCPBASH_HTTP_STATELESS,
    token,
    allowedOrigins: values.MCPBASH_HTTP_ALLOWED_ORIGINS,
    maxBodyBytes: values.MCPBASH_HTTP_MAX_BODY_BYTES,
    requestTimeoutMs: values.MCPBASH_HTTP_REQUEST_TIMEOUT_SECS * 1000,
    sessionIdleMs: values.MCPBASH_HTTP_SESSION_IDLE_SECS * 1000,
    maxSessions: values.MCPBASH_HTTP_MAX_SESSIONS,
    resumeGraceMs: values.MCPBASH_HTTP_RESUME_GRACE_SECS * 1000,
    trustClientRoots: values.MCPBASH_HTTP_TRUST_CLIENT_ROOTS,
  };
}
