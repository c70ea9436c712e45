import { chmodSync, mkdtempSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { unzipSync } from 'fflate';
import { extract } from 'tar';
import { CliError, ExitCode } from '../../cli/cli-error.js';

/** Where a release archive keeps the binary: at its top, or in its one top-level directory. */
function isBinaryEntry(path: string, binaryName: string): boolean {
  const parts = path.replace(/^\.\//, '').split('/');
  return parts.at(-1) === binaryName && parts.length <= 2;
}

function isZip(archive: Uint8Array): boolean {
  return archive[0] === 0x50 && archive[1] === 0x4b;
}

function isGzip(archive: Uint8Array): boolean {
  return archive[0] === 0x1f && archive[1] === 0x8b;
}

function fromZip(archive: Uint8Array, binaryName: string): Uint8Array | undefined {
  let files: Record<string, Uint8Array>;
  try {
    files = unzipSync(archive, { filter: (file) => isBinaryEntry(file.name, binaryName) });
  } catch (error) {
    throw new CliError(`the archive is not a readable zip: ${(error as Error).message}`, ExitCode.Failure);
  }
  return Object.values(files)[0];
}

/** Unpacks the binary of a .tar.gz into a temp dir beside `destination`; returns its path there. */
function fromTarGz(archive: Uint8Array, binaryName: string, destination: string): string | undefined {
  const work = mkdtempSync(join(dirname(destination), '.mcp-bash.unpack-'));
  try {
    const file = join(work, 'archive.tar.gz');
    writeFileSync(file, archive);
    let found: string | undefined;
    extract({
      file,
      cwd: work,
      sync: true,
      strict: true,
      filter: (path) => {
        const wanted = isBinaryEntry(path, binaryName) && found === undefined;
        if (wanted) found = path;
        return wanted;
      },
    });
    if (found === undefined) return undefined;
    renameSync(join(work, found), destination);
    return destination;
  } catch (error) {
    throw new CliError(`the archive is not a readable .tar.gz: ${(error as Error).message}`, ExitCode.Failure);
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}

/**
 * Writes the mcp-bash binary held in `archive` (a release .tar.gz or .zip) to `destination`,
 * executable. Throws a CliError when the archive holds none.
 */
export function extractBinary(archive: Uint8Array, binaryName: string, destination: string): void {
  if (isZip(archive)) {
    const bytes = fromZip(archive, binaryName);
    if (bytes) writeFileSync(destination, bytes);
    else throw new CliError(`the archive holds no ${binaryName}`, ExitCode.Failure);
  } else if (isGzip(archive)) {
    if (!fromTarGz(archive, binaryName, destination))
      throw new CliError(`the archive holds no ${binaryName}`, ExitCode.Failure);
  } else {
    throw new CliError('the archive is neither a .tar.gz nor a .zip', ExitCode.Failure);
  }
  chmodSync(destination, 0o755);
}
