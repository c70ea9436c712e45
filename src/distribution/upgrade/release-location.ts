import { RELEASE_BASE_URL } from '../../build-info.js';
import { CliError, ExitCode } from '../../cli/cli-error.js';

const OS_NAMES: Readonly<Record<string, string>> = { linux: 'linux', darwin: 'darwin', win32: 'windows' };
const ARCHES = new Set(['x64', 'arm64']);

/**
 * The release archive for this machine, named as release/targets.mjs names it:
 * `mcp-bash-<version>-<os>-<arch>.tar.gz` (`.zip` on Windows). Undefined where no release
 * binary exists.
 */
export function releaseArchiveName(
  version: string,
  platform: string = process.platform,
  arch: string = process.arch,
): string | undefined {
  const os = OS_NAMES[platform];
  if (!os || !ARCHES.has(arch)) return undefined;
  return `mcp-bash-${version}-${os}-${arch}${os === 'windows' ? '.zip' : '.tar.gz'}`;
}

/**
 * The download directory of release `version`: MCPBASH_RELEASE_BASE_URL, else the URL the
 * build recorded, `{version}` replaced.
 */
export function releaseDirectoryUrl(baseUrl: string | undefined, version: string): string {
  const template = baseUrl ?? RELEASE_BASE_URL;
  if (template === '')
    throw new CliError('no release download URL is known: set MCPBASH_RELEASE_BASE_URL', ExitCode.Failure);
  return template.replaceAll('{version}', version).replace(/\/+$/, '');
}

/** The expected SHA-256 of `name` in a SHA256SUMS file (`<hex>  <name>` lines). */
export function checksumFor(sums: string, name: string): string | undefined {
  for (const line of sums.split(/\r?\n/)) {
    const match = /^([0-9a-fA-F]{64}) [ *]?(.+)$/.exec(line.trim());
    if (match && match[2] === name) return match[1]?.toLowerCase();
  }
  return undefined;
}
