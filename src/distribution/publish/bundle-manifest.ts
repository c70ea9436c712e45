import { readFileSync, statSync } from 'node:fs';
import { unzipSync } from 'fflate';
import { CliError, ExitCode } from '../../cli/cli-error.js';
import { isObject } from '../../json/objects.js';

/** What `publish` needs from a bundle: its bytes and the manifest fields it names. */
export interface PublishableBundle {
  readonly data: Buffer;
  readonly name: string;
  readonly version: string;
  readonly description: string;
  readonly author: string | undefined;
}

const ZIP_SIGNATURE = Buffer.from([0x50, 0x4b, 0x03, 0x04]);

function manifestOf(data: Buffer, path: string): Record<string, unknown> {
  let files: Record<string, Uint8Array>;
  try {
    files = unzipSync(data, { filter: (file) => file.name === 'manifest.json' });
  } catch (error) {
    throw new CliError(`${path} is not a readable zip archive: ${(error as Error).message}`, ExitCode.Failure);
  }
  const raw = files['manifest.json'];
  if (!raw)
    throw new CliError(`${path} has no manifest.json at its root`, ExitCode.Failure, "Make it with 'mcp-bash bundle'.");
  try {
    const manifest: unknown = JSON.parse(Buffer.from(raw).toString('utf8'));
    if (isObject(manifest)) return manifest;
  } catch {
    // reported below
  }
  throw new CliError(`${path}: manifest.json is not a JSON object`, ExitCode.Failure);
}

/**
 * Reads and checks a bundle before it is sent: the file exists, is a zip, and its
 * manifest.json names a name, a version and a description (1.x's checks).
 */
export function readPublishableBundle(path: string): PublishableBundle {
  try {
    if (!statSync(path).isFile()) throw new Error('not a file');
  } catch {
    throw new CliError(`${path} does not exist or is not a file`, ExitCode.Failure);
  }
  const data = readFileSync(path);
  if (!data.subarray(0, 4).equals(ZIP_SIGNATURE))
    throw new CliError(`${path} is not a zip archive (an .mcpb bundle)`, ExitCode.Failure);
  const manifest = manifestOf(data, path);
  const missing = ['name', 'version', 'description'].filter(
    (key) => typeof manifest[key] !== 'string' || (manifest[key] as string).trim() === '',
  );
  if (missing.length > 0) throw new CliError(`${path}: manifest.json has no ${missing.join(', ')}`, ExitCode.Failure);
  const author =
    isObject(manifest.author) && typeof manifest.author.name === 'string' ? manifest.author.name : undefined;
  return {
    data,
    name: manifest.name as string,
    version: manifest.version as string,
    description: manifest.description as string,
    author,
  };
}
