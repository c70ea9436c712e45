import { isIP } from 'node:net';

/** Where the HTTP server listens. */
export interface ListenAddress {
  readonly host: string;
  readonly port: number;
}

/** The host of `--http PORT` (decision D200): loopback unless told otherwise. */
const DEFAULT_HOST = '127.0.0.1';

/**
 * Reads `[HOST:]PORT` (`8080`, `0.0.0.0:8080`, `[::1]:8080`, `localhost:0`); port 0 picks
 * a free port. Returns an error message for anything else.
 */
export function parseListenAddress(value: string): ListenAddress | string {
  const text = value.trim();
  const match = /^(?:\[([^\]]+)\]:|([^:[\]]+):)?(\d{1,5})$/.exec(text);
  if (!match) return `"${value}" is not [HOST:]PORT (e.g. 8080, 127.0.0.1:8080, [::1]:8080)`;
  const [, bracketed, named, portText] = match;
  const port = Number(portText);
  if (port > 65535) return `port ${port} is out of range (0-65535)`;
  const host = bracketed ?? named ?? DEFAULT_HOST;
  if (bracketed !== undefined && isIP(bracketed) !== 6) return `"[${bracketed}]" is not an IPv6 address`;
  return { host, port };
}

/** Whether a host name or address reaches only this machine (127.0.0.0/8, ::1, localhost). */
export function isLoopbackHost(host: string): boolean {
  const bare = host.replace(/^\[|\]$/g, '').toLowerCase();
  if (bare === 'localhost' || bare.endsWith('.localhost')) return true;
  if (isIP(bare) === 4) return bare.startsWith('127.');
  if (isIP(bare) === 6) return bare === '::1' || /^::ffff:127\./.test(bare);
  return false;
}

/** `http://HOST:PORT/path`, an IPv6 host in brackets. */
export function endpointUrl(host: string, port: number, path: string): string {
  const shown = isIP(host) === 6 ? `[${host}]` : host;
  return `http://${shown}:${port}${path}`;
}
