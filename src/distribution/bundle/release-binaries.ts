import { existsSync, mkdirSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { VERSION } from '../../build-info.js';
import { CliError, ExitCode } from '../../cli/cli-error.js';
import { sha256Hex } from '../../json/canonical-json.js';
import { extractBinary } from '../upgrade/extract-binary.js';
import { checksumFor } from '../upgrade/release-location.js';
import { executableFormat, runsOn } from './executable-format.js';
import { releaseBinaryName } from './runtime-sources.js';

/** The `<os>-<arch>` of a target in archive names: `win-x64` is `windows-x64`. */
function archiveSuffix(target: string): string {
  const [os, arch] = target.split('-');
  return `-${os === 'win' ? 'windows' : os}-${arch}${os === 'win' ? '.zip' : '.tar.gz'}`;
}

/**
 * The release archive of `target` in `dir` (`mcp-bash-<version>-<os>-<arch>.tar.gz|.zip`, as
 * `npm run release` writes them): this mcp-bash's version when there, else the only one.
 */
function findArchive(dir: string, target: string): string | undefined {
  const suffix = archiveSuffix(target);
  const names = readdirSync(dir).filter((name) => name.startsWith('mcp-bash-') && name.endsWith(suffix));
  const own = `mcp-bash-${VERSION}${suffix}`;
  if (names.includes(own) || names.length <= 1) return names.includes(own) ? own : names[0];
  throw new CliError(
    `${dir} holds release archives of several versions for ${target} (${names.sort().join(', ')}) and none ` +
      `of this mcp-bash (${VERSION})`,
    ExitCode.Failure,
    'Keep one version in the --binaries directory.',
  );
}

/** The archive's bytes, checked against the directory's SHA256SUMS when that lists it. */
function readChecked(dir: string, name: string): Buffer {
  const bytes = readFileSync(join(dir, name));
  const sumsPath = join(dir, 'SHA256SUMS');
  const expected = existsSync(sumsPath) ? checksumFor(readFileSync(sumsPath, 'utf8'), name) : undefined;
  if (expected !== undefined && sha256Hex(bytes) !== expected)
    throw new CliError(
      `${join(dir, name)} does not match its SHA-256 in ${sumsPath} (a partial or altered download?)`,
      ExitCode.Failure,
    );
  return bytes;
}

/** Refuses a file that is not an executable of `target` (a stub, a truncated copy, another OS's binary). */
function checkExecutable(path: string, target: string, origin = path): void {
  const format = executableFormat(path);
  if (!runsOn(format, target))
    throw new CliError(
      `${origin} is ${format.description}, not an mcp-bash binary for ${target}`,
      ExitCode.Failure,
      "Pass --binaries DIR holding the release as 'npm run release' writes it (dist/release/).",
    );
}

/**
 * The binary of `target` from `--binaries DIR`: a bare binary named as BUNDLES.md says
 * (`mcp-bash-linux-x64`, `mcp-bash-win-x64.exe`), else the one in the release archive, unpacked
 * into `unpackDir`. Undefined when the directory has neither; throws for a wrong file.
 */
export function releaseBinaryIn(dir: string, target: string, unpackDir: string): string | undefined {
  const bare = join(dir, releaseBinaryName(target));
  if (existsSync(bare)) {
    checkExecutable(bare, target);
    return bare;
  }
  const archive = findArchive(dir, target);
  if (archive === undefined) return undefined;
  const destination = join(unpackDir, target, releaseBinaryName(target));
  mkdirSync(join(unpackDir, target), { recursive: true });
  try {
    extractBinary(readChecked(dir, archive), target.startsWith('win-') ? 'mcp-bash.exe' : 'mcp-bash', destination);
  } catch (error) {
    if (error instanceof CliError) throw new CliError(`${join(dir, archive)}: ${error.message}`, error.exitCode);
    throw error;
  }
  checkExecutable(destination, target, `the binary in ${join(dir, archive)}`);
  return destination;
}
