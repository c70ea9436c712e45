import type { FrameworkHome } from '../../assets/framework-home.js';
import { upgradeConfig } from '../../config/slices.js';
import type { UpgradeOutcome } from '../../distribution/upgrade/self-upgrade.js';
import { ExitCode, UsageError } from '../cli-error.js';
import type { CliIo, CommandContext, ParsedCommand } from '../command.js';
import { type ActionTaken, DoctorReport, type RepairAction } from '../doctor/doctor-report.js';
import { plannedUpgrade, runUpgrade, upgradeRequest } from '../doctor/doctor-upgrade.js';
import {
  checkBinary,
  checkFramework,
  checkOptionalTools,
  checkPathAndShim,
  checkQuarantine,
  checkRuntime,
  checkWindows,
} from '../doctor/environment-checks.js';
import { checkMinVersion, checkProject } from '../doctor/project-checks.js';
import { writeJsonReport } from '../json-report.js';
import { colorEnabled, levelMark, palette } from '../terminal.js';

const usage =
  'mcp-bash doctor [--json] [--dry-run | --fix] [--min-version X.Y.Z] [--archive PATH|URL --verify SHA256 | ' +
  '--version V] [--allow-downgrade]';

function frameworkHomeOrError(context: CommandContext): FrameworkHome | Error {
  try {
    return context.frameworkHome();
  } catch (error) {
    return error instanceof Error ? error : new Error(String(error));
  }
}

function diagnose(context: CommandContext, minVersion: string | undefined, upgraded?: UpgradeOutcome): DoctorReport {
  const { io } = context;
  const report = new DoctorReport();
  checkBinary(report);
  checkFramework(report, frameworkHomeOrError(context), context.assets, io.env);
  checkRuntime(report, context.config, io.env);
  checkPathAndShim(report, io.env);
  checkQuarantine(report);
  checkWindows(report, io.env);
  checkOptionalTools(report, io.env);
  checkProject(report, context.config, io.env, io.cwd);
  if (upgraded?.changed)
    report.add('binary.upgraded', 'info', `${upgraded.binary} is now mcp-bash ${upgraded.to} (was ${upgraded.from})`);
  checkMinVersion(report, minVersion, '--min-version', upgraded?.to);
  return report;
}

function applyRepairs(report: DoctorReport): ActionTaken[] {
  return report.actions.map((action) => {
    const taken = { id: action.id, message: action.message, command: action.command };
    try {
      action.apply();
      return { ...taken, ok: true };
    } catch (error) {
      return { ...taken, ok: false, error: (error as Error).message };
    }
  });
}

/** Errors found plus repairs (an upgrade too) that failed: each is why doctor exits 1. */
function errorCount(report: DoctorReport, taken: readonly ActionTaken[]): number {
  return report.count('error') + taken.filter((action) => !action.ok).length;
}

function printHuman(
  io: CliIo,
  report: DoctorReport,
  taken: readonly ActionTaken[] | undefined,
  proposed: readonly Pick<RepairAction, 'message'>[],
  mode: 'check' | 'dry-run' | 'fix',
): void {
  const colors = palette(colorEnabled(io.stdout, io.env));
  const lines = ['mcp-bash doctor', ''];
  for (const finding of report.findings) {
    lines.push(`  ${levelMark(finding.severity, colors)} ${finding.message}`);
    if (finding.severity !== 'info' && finding.suggestedCommand)
      lines.push(colors.dim(`      ${finding.fixable ? 'fix' : 'try'}: ${finding.suggestedCommand}`));
  }
  if (taken && taken.length > 0) {
    lines.push(
      '',
      'Repairs:',
      ...taken.map(
        (action) =>
          `  ${levelMark(action.ok ? 'info' : 'error', colors)} ` +
          `${action.message}${action.error ? `: ${action.error}` : ''}`,
      ),
    );
  } else if (proposed.length > 0) {
    lines.push(
      '',
      mode === 'dry-run' ? 'Would repair (--fix applies these):' : "Repairs 'mcp-bash doctor --fix' would make:",
    );
    lines.push(...proposed.map((action) => `  - ${action.message}`));
  }
  lines.push('', `${errorCount(report, taken ?? [])} error(s), ${report.count('warning')} warning(s).`, '');
  io.stdout.write(lines.join('\n'));
}

function jsonReport(
  report: DoctorReport,
  exitCode: number,
  proposed: readonly Pick<RepairAction, 'id' | 'message' | 'command'>[],
  taken: readonly ActionTaken[],
): object {
  return {
    exitCode,
    findings: report.findings,
    proposedActions: proposed.map(({ id, message, command }) => ({ id, message, command })),
    actionsTaken: taken,
    ...report.sections,
    errors: errorCount(report, taken),
    warnings: report.count('warning'),
  };
}

/** `mcp-bash doctor`: is this install, this machine and this project ready to serve tools? */

export const command: ParsedCommand = {
  name: 'doctor',
  reads: ['project', 'json-tool', 'cli:doctor'],
  summary: 'Diagnose the install, the machine and the project; --fix repairs what it can',
  usage,
  options: {
    string: ['min-version', 'archive', 'verify', 'ref', 'version'],
    boolean: ['json', 'fix', 'dry-run', 'allow-downgrade'],
  },
  details: [
    'Options:',
    '  --json              one JSON line (schemaVersion 1): findings, proposedActions,',
    '                      actionsTaken, framework, runtime, install, shim, macOS, windows,',
    "                      project (1.x's sections), plus binary, assets and optional",
    '  --dry-run           list the repairs --fix would make, change nothing',
    '  --fix               repair: extract the framework files again when they are damaged,',
    '                      (re)link ~/.local/bin/mcp-bash to this binary, lift macOS quarantine',
    '  --min-version X.Y.Z fail when this mcp-bash is older (with an upgrade: when the new one is)',
    '',
    'Upgrades (with --fix; listed, not made, without it):',
    '  --archive PATH|URL  replace this binary with the one in a release archive (.tar.gz, .zip)',
    "  --verify SHA256     the archive's SHA-256 (required with --archive; its SHA256SUMS line)",
    '  --version V         download release V (MCPBASH_RELEASE_BASE_URL, checked against its',
    '                      SHA256SUMS); --ref V is the same',
    '  --allow-downgrade   allow installing an older version',
    'The new binary must run (--version) before it replaces this one, atomically; the old one',
    'is kept until the new one has run from its place (MCPBASH_DOCTOR_KEEP_BACKUP=true keeps it).',
    '',
    'Checks: this binary; its extracted framework files against the archive inside it (every',
    'file by SHA-256); bash; jq/gojq (else the built-in jq); the temp dir; mcp-bash on PATH and',
    'the ~/.local/bin link; the project here and server.d/requirements.json (framework.minVersion,',
    'dependencies).',
    'Exit status: 0 healthy, 1 errors (or a repair or upgrade failed), 2 usage, 3 refused (a',
    'downgrade without --allow-downgrade, or an upgrade of a bundle run by node).',
  ].join('\n'),
  async run(options, context) {
    if (options.boolean('fix') && options.boolean('dry-run'))
      throw new UsageError('--fix and --dry-run cannot be combined', usage);
    const minVersion = options.string('min-version');
    const upgrade = upgradeRequest(options, usage);
    const fix = options.boolean('fix');
    const upgradeRun =
      upgrade && fix
        ? await runUpgrade(upgrade, { env: context.io.env, config: upgradeConfig(context.config.values) })
        : undefined;
    let report = diagnose(context, minVersion, upgradeRun?.outcome);
    const proposed = [...(upgrade && !fix ? [plannedUpgrade(upgrade)] : []), ...report.actions];
    let taken: ActionTaken[] = upgradeRun ? [upgradeRun.taken] : [];
    if (fix && report.actions.length > 0) {
      taken = [...taken, ...applyRepairs(report)];
      report = diagnose(context, minVersion, upgradeRun?.outcome);
    }
    const failed = report.count('error') > 0 || taken.some((action) => !action.ok);
    const exitCode = upgradeRun?.exitCode ?? (failed ? ExitCode.Failure : ExitCode.Ok);
    if (options.boolean('json')) writeJsonReport(context.io.stdout, jsonReport(report, exitCode, proposed, taken));
    else
      printHuman(
        context.io,
        report,
        options.boolean('fix') ? taken : undefined,
        proposed,
        options.boolean('dry-run') ? 'dry-run' : options.boolean('fix') ? 'fix' : 'check',
      );
    return exitCode;
  },
};
