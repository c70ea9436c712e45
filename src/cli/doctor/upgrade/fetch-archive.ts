import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { CliError, ExitCode } from '../../cli-error.js';

const DOWNLOAD_TIMEOUT_MS = 5 * 60 * 1000;

function isUrl(location: string): boolean {
  return /^(https?|file):\/\//i.test(location);
}

/** Downloads `url` (http, https or file) whole; a failure is a CliError naming the URL. */
export async function download(url: string): Promise<Buffer> {
  if (url.toLowerCase().startsWith('file://')) return readLocal(fileURLToPath(url));
  let response: Response;
  try {
    response = await fetch(url, { signal: AbortSignal.timeout(DOWNLOAD_TIMEOUT_MS), redirect: 'follow' });
  } catch (error) {
    throw new CliError(`cannot download ${url}: ${(error as Error).message}`, ExitCode.Failure);
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
