import { spawnSync } from 'node:child_process';
import { copyFileSync, existsSync, linkSync, renameSync, rmSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { VERSION } from '../../build-info.js';
import { CliError, ExitCode } from '../../cli/cli-error.js';
import { selfCommand, selfExecutable } from '../../cli/self-command.js';
import type { Env } from '../../config/env-values.js';
import type { UpgradeConfig } from '../../config/slices.js';
import { sha256Hex } from '../../json/canonical-json.js';
import { compareVersions } from '../../text/versions.js';
import { extractBinary } from './extract-binary.js';
import { download, readArchive } from './fetch-archive.js';
import { checksumFor, releaseArchiveName, releaseDirectoryUrl } from './release-location.js';
import { withUpgradeLock } from './upgrade-lock.js';

/** 1.x's exit status for "asked to change what doctor must not change". */
const POLICY_REFUSAL = 3;

/** What `doctor --fix` was asked to install: an archive with its hash, or a release version. */
export interface UpgradeRequest {
  readonly archive?: string;
  readonly verify?: string;
  readonly version?: string;
  readonly allowDowngrade: boolean;
  readonly minVersion?: string;
}

export interface UpgradeOutcome {
  readonly binary: string;
  readonly from: string;
  readonly to: string;
  /** False when the requested release is the running one. */
  readonly changed: boolean;
  /** The previous binary, kept when MCPBASH_DOCTOR_KEEP_BACKUP is true. */
  readonly backup: string | null;
}

interface ResolvedSource {
  readonly location: string;
  readonly sha256: string;
}

/** Where an upgrade runs: the environment the new binary is tried in, and the upgrade settings. */
export interface Upgrade {
  readonly env: Env;
  readonly config: UpgradeConfig;
}

const binaryName = process.platform === 'win32' ? 'mcp-bash.exe' : 'mcp-bash';

/** Where the archive comes from and the hash it must have. */
async function resolveSource(request: UpgradeRequest, config: UpgradeConfig): Promise<ResolvedSource> {
  if (request.archive !== undefined) return { location: request.archive, sha256: (request.verify ?? '').toLowerCase() };
  const version = request.version as string;
  const name = releaseArchiveName(version);
  if (!name) throw new CliError(`no release binary exists for ${process.platform}-${process.arch}`);
  const base = releaseDirectoryUrl(config.releaseBaseUrl, version);
  const sha256 = checksumFor((await download(`${base}/SHA256SUMS`)).toString('utf8'), name);
  if (!sha256) throw new CliError(`${base}/SHA256SUMS lists no ${name}: is ${version} a release?`);
  if (request.verify !== undefined && request.verify.toLowerCase() !== sha256)
    throw new CliError(`--verify ${request.verify} does not match SHA256SUMS (${sha256}); nothing was changed`);
  return { location: `${base}/${name}`, sha256 };
}

/** Runs `binary --version`; returns the version it prints, or throws naming what went wrong. */
function versionOf(binary: string, env: Env): string {
  const run = spawnSync(binary, ['--version'], { env, encoding: 'utf8', timeout: 60_000 });
  const match = /^mcp-bash (\S+)/.exec(run.stdout ?? '');
  if (run.status === 0 && match?.[1]) return match[1];
  const why = run.error?.message ?? `exit ${run.status ?? run.signal}: ${(run.stderr || run.stdout || '').trim()}`;
  throw new CliError(`the new binary does not run here (${why}); nothing was changed`);
}

function checkPolicy(newVersion: string, request: UpgradeRequest): void {
  if ((compareVersions(newVersion, VERSION) ?? 0) < 0 && !request.allowDowngrade)
    throw new CliError(
      `the archive holds mcp-bash ${newVersion}, older than this ${VERSION}; nothing was changed`,
      POLICY_REFUSAL,
      'pass --allow-downgrade to install an older version',
    );
  if (request.minVersion !== undefined && (compareVersions(newVersion, request.minVersion) ?? 0) < 0)
    throw new CliError(`the archive holds mcp-bash ${newVersion}, older than --min-version ${request.minVersion}`);
}

/**
 * Puts `staged` in place of `target`. The old binary stays as `<target>.bak` until the new one
 * has answered --version from its final path; if it does not, the old one is put back.
 */
function swap(target: string, staged: string, expected: string, upgrade: Upgrade): string | null {
  const { env } = upgrade;
  const backup = `${target}.bak`;
  rmSync(backup, { force: true });
  if (process.platform === 'win32') {
    // A running .exe cannot be replaced or deleted, but it can be renamed.
    renameSync(target, backup);
  } else {
    try {
      linkSync(target, backup);
    } catch {
      copyFileSync(target, backup);
    }
  }
  renameSync(staged, target);
  let installed: string | undefined;
  try {
    installed = versionOf(target, env);
  } catch {
    installed = undefined;
  }
  if (installed !== expected) {
    renameSync(backup, target);
    throw new CliError(`the new binary did not run from ${target}; the previous one was put back`);
  }
  if (upgrade.config.keepBackup) return backup;
  rmSync(backup, { force: true });
  return null;
}

async function install(target: string, source: ResolvedSource, request: UpgradeRequest, upgrade: Upgrade) {
  const archive = await readArchive(source.location);
  const actual = sha256Hex(archive);
  if (actual !== source.sha256)
    throw new CliError(
      `checksum mismatch for ${source.location}: expected ${source.sha256}, got ${actual}; nothing was changed`,
    );
  const staged = join(dirname(target), `.mcp-bash.new-${process.pid}`);
  try {
    extractBinary(archive, binaryName, staged);
    const newVersion = versionOf(staged, upgrade.env);
    checkPolicy(newVersion, request);
    const backup = swap(target, staged, newVersion, upgrade);
    return { binary: target, from: VERSION, to: newVersion, changed: true, backup };
  } finally {
    if (existsSync(staged)) rmSync(staged, { force: true });
  }
}

/**
 * Replaces the running binary with the one from an archive (its SHA-256 checked first) or
 * from a release (checked against the release's SHA256SUMS). Throws a CliError with exit
 * status 1 (failed; nothing changed) or 3 (refused: a downgrade, or not a native binary).
 */
export async function upgradeSelf(request: UpgradeRequest, upgrade: Upgrade): Promise<UpgradeOutcome> {
  if (selfCommand().args.length > 0)
    throw new CliError(
      `this mcp-bash is a bundle run by node (${selfExecutable()}); doctor upgrades only the native binary`,
      POLICY_REFUSAL,
    );
  const target = selfExecutable();
  if (request.archive === undefined && request.version === VERSION) {
    return { binary: target, from: VERSION, to: VERSION, changed: false, backup: null };
  }
  const source = await resolveSource(request, upgrade.config);
  return withUpgradeLock(join(dirname(target), '.mcp-bash.upgrade.lock'), upgrade.config, () =>
    install(target, source, request, upgrade),
  );
}

/** The exit status a failed upgrade maps to. */
export function upgradeExitCode(error: unknown): number {
  return error instanceof CliError && error.exitCode === POLICY_REFUSAL ? POLICY_REFUSAL : ExitCode.Failure;
}
