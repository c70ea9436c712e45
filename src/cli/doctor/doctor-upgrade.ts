import {
  type Upgrade,
  type UpgradeOutcome,
  type UpgradeRequest,
  upgradeExitCode,
  upgradeSelf,
} from '../../distribution/upgrade/self-upgrade.js';
import { CliError, UsageError } from '../cli-error.js';
import type { ParsedOptions } from '../parse-options.js';
import type { ActionTaken, RepairAction } from './doctor-report.js';

const SHA256 = /^[0-9a-f]{64}$/i;

/**
 * The upgrade doctor's flags ask for, or undefined when they ask for none. Usage errors
 * (exit 2) as in 1.x: --archive without --verify, a malformed hash, two sources at once.
 */
export function upgradeRequest(options: ParsedOptions, usage: string): UpgradeRequest | undefined {
  const archive = options.string('archive');
  const verify = options.string('verify');
  const version = options.string('version') ?? options.string('ref');
  if (options.string('version') !== undefined && options.string('ref') !== undefined)
    throw new UsageError('--version and --ref name the same thing; give one', usage);
  if (archive !== undefined && version !== undefined)
    throw new UsageError('--archive and --version are two sources; give one', usage);
  if (archive !== undefined && verify === undefined)
    throw new UsageError('--archive needs --verify SHA256 (the archive line of the release SHA256SUMS)', usage);
  if (verify !== undefined && archive === undefined && version === undefined)
    throw new UsageError('--verify checks an --archive or a --version download; give one of them', usage);
  if (verify !== undefined && !SHA256.test(verify))
    throw new UsageError(`--verify "${verify}" is not a SHA-256 (64 hex digits)`, usage);
  if (version !== undefined && !/^v?\d+\.\d+\.\d+\S*$/.test(version))
    throw new UsageError(`--version "${version}" is not a release version like 2.1.0`, usage);
  if (archive === undefined && version === undefined) return undefined;
  return {
    ...(archive !== undefined ? { archive } : {}),
    ...(verify !== undefined ? { verify } : {}),
    ...(version !== undefined ? { version: version.replace(/^v/, '') } : {}),
    ...(options.string('min-version') !== undefined ? { minVersion: options.string('min-version') } : {}),
    allowDowngrade: options.boolean('allow-downgrade'),
  };
}

function describe(request: UpgradeRequest): string {
  return request.archive !== undefined
    ? `replace this binary with the one in ${request.archive}`
    : `replace this binary with release ${request.version}`;
}

/** The upgrade as a proposed action (check and --dry-run modes). */
export function plannedUpgrade(request: UpgradeRequest): Pick<RepairAction, 'id' | 'message' | 'command'> {
  const source =
    request.archive !== undefined
      ? `--archive ${request.archive} --verify ${request.verify}`
      : `--version ${request.version}`;
  return {
    id: 'binary.upgrade',
    message: describe(request),
    command: `mcp-bash doctor --fix ${source}${request.allowDowngrade ? ' --allow-downgrade' : ''}`,
  };
}

/** The result of `doctor --fix` with upgrade flags: the action taken and, if it failed, the exit status. */
export interface UpgradeRun {
  readonly taken: ActionTaken;
  readonly outcome?: UpgradeOutcome;
  readonly exitCode?: number;
}

/** Performs the upgrade; a failure becomes a failed action with 1.x's exit status (1 or 3). */
export async function runUpgrade(request: UpgradeRequest, upgrade: Upgrade): Promise<UpgradeRun> {
  const base = { id: 'binary.upgrade', message: describe(request), command: plannedUpgrade(request).command };
  try {
    const outcome = await upgradeSelf(request, upgrade);
    const message = outcome.changed
      ? `replaced ${outcome.binary}: mcp-bash ${outcome.from} -> ` +
        `${outcome.to}${outcome.backup ? ` (previous binary kept at ${outcome.backup})` : ''}`
      : `mcp-bash ${outcome.to} is already installed`;
    return { taken: { ...base, message, ok: true }, outcome };
  } catch (error) {
    const hint = error instanceof CliError && error.hint ? ` (${error.hint})` : '';
    return {
      taken: { ...base, ok: false, error: `${(error as Error).message}${hint}` },
      exitCode: upgradeExitCode(error),
    };
  }
}
