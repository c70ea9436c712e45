import type { SettingValues } from '../config/settings.js';
import { MIN_REMOTE_TOKEN_LENGTH } from '../mcp/remote-token.js';
import { isLoopbackHost, type ListenAddress, parseListenAddress } from './listen-address.js';

/** How `mcp-bash serve --http` serves: the command line first, then MCPBASH_HTTP_* (docs/ENV.md). */
export type HttpSettings = ReturnType<typeof servedSettings>;

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
export function httpListenValue(flags: HttpFlags, values: SettingValues): string | undefined {
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
  values: SettingValues,
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
  return servedSettings(listen, path, flags, values);
}

function servedSettings(listen: ListenAddress, path: string, flags: HttpFlags, values: SettingValues) {
  return {
    listen,
    path,
    stateless: flags.stateless === true || values.MCPBASH_HTTP_STATELESS,
    token: values.MCPBASH_HTTP_TOKEN,
    allowedOrigins: values.MCPBASH_HTTP_ALLOWED_ORIGINS,
    maxBodyBytes: values.MCPBASH_HTTP_MAX_BODY_BYTES,
    requestTimeoutMs: values.MCPBASH_HTTP_REQUEST_TIMEOUT_SECS * 1000,
    sessionIdleMs: values.MCPBASH_HTTP_SESSION_IDLE_SECS * 1000,
    maxSessions: values.MCPBASH_HTTP_MAX_SESSIONS,
    resumeGraceMs: values.MCPBASH_HTTP_RESUME_GRACE_SECS * 1000,
    // A client's roots widen what the server reads, as over stdio (D289).
    trustClientRoots: values.MCPBASH_HTTP_TRUST_CLIENT_ROOTS,
  };
}
