import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { CliError, ExitCode } from '../../cli/cli-error.js';

const DOWNLOAD_TIMEOUT_MS = 5 * 60 * 1000;

function isUrl(location: string): boolean {
  return /^(https?|file):\/\//i.test(location);
}

const NETWORK_ERRORS: Readonly<Record<string, string>> = {
  ECONNREFUSED: 'connection refused',
  ECONNRESET: 'connection reset',
  ENOTFOUND: 'no such host',
  EAI_AGAIN: 'the host name could not be looked up (yet)',
  ETIMEDOUT: 'the connection timed out',
  EHOSTUNREACH: 'no route to the host',
  ENETUNREACH: 'the network is unreachable',
};

/** Why fetch failed: its message is only "fetch failed"; the cause says what happened. */
function fetchFailure(error: unknown): string {
  if (error instanceof Error && error.name === 'TimeoutError')
    return `no complete answer within ${DOWNLOAD_TIMEOUT_MS / 1000} s`;
  const cause = (error as { cause?: unknown }).cause;
  if (!(cause instanceof Error)) return (error as Error).message;
  const code = (cause as NodeJS.ErrnoException).code;
  if (code && NETWORK_ERRORS[code]) return `${NETWORK_ERRORS[code]} (${code})`;
  return code && !cause.message.includes(code) ? `${cause.message} (${code})` : cause.message;
}

/** Downloads `url` (http, https or file) whole; a failure is a CliError naming the URL. */
export async function download(url: string): Promise<Buffer> {
  if (url.toLowerCase().startsWith('file://')) return readLocal(fileURLToPath(url));
  let response: Response;
  try {
    response = await fetch(url, { signal: AbortSignal.timeout(DOWNLOAD_TIMEOUT_MS), redirect: 'follow' });
  } catch (error) {
    throw new CliError(`cannot download ${url}: ${fetchFailure(error)}`, ExitCode.Failure);
  }
  if (!response.ok) throw new CliError(`cannot download ${url}: HTTP ${response.status}`, ExitCode.Failure);
  return Buffer.from(await response.arrayBuffer());
}

function readLocal(path: string): Buffer {
  try {
    return readFileSync(path);
  } catch (error) {
    throw new CliError(`cannot read ${path}: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`);
  }
}

/** The bytes of an archive given as a path, a file:// URL or an http(s) URL. */
export function readArchive(location: string): Promise<Buffer> {
  return isUrl(location) ? download(location) : Promise.resolve(readLocal(location));
}
