import type { FrameworkHome } from '../../assets/framework-home.js';
import { CliError, ExitCode, UsageError } from '../cli-error.js';
import type { CliIo, Command, CommandContext } from '../command.js';
import { type ActionTaken, DoctorReport, type Finding } from '../doctor/doctor-report.js';
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
import { type ParsedOptions, parseOptions } from '../parse-options.js';
import { colorEnabled, type Palette, palette } from '../terminal.js';

const usage = 'mcp-bash doctor [--json] [--dry-run | --fix] [--min-version X.Y.Z]';
/** 1.x's upgrade flags: a single binary is upgraded by replacing it, not by doctor. */
const POLICY_REFUSAL = 3;
const INSTALL_FLAGS = ['archive', 'verify', 'ref', 'version', 'allow-downgrade'];

function frameworkHomeOrError(context: CommandContext): FrameworkHome | Error {
  try {
    return context.frameworkHome();
  } catch (error) {
    return error instanceof Error ? error : new Error(String(error));
  }
}

function diagnose(context: CommandContext, minVersion: string | undefined): DoctorReport {
  const { io } = context;
  const report = new DoctorReport();
  checkBinary(report);
  checkFramework(report, frameworkHomeOrError(context), context.assets, io.env);
  checkRuntime(report, io.env);
  checkPathAndShim(report, io.env);
  checkQuarantine(report);
  checkWindows(report, io.env);
  checkOptionalTools(report, io.env);
  checkProject(report, io.env, io.cwd);
  checkMinVersion(report, minVersion, '--min-version');
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

function symbol(finding: Finding, colors: Palette): string {
  if (finding.severity === 'error') return colors.red('✗');
  return finding.severity === 'warning' ? colors.yellow('⚠') : colors.green('✓');
}

function printHuman(
  io: CliIo,
  report: DoctorReport,
  taken: readonly ActionTaken[] | undefined,
  mode: 'check' | 'dry-run' | 'fix',
): void {
  const colors = palette(colorEnabled(io.stdout, io.env));
  const lines = ['mcp-bash doctor', ''];
  for (const finding of report.findings) {
    lines.push(`  ${symbol(finding, colors)} ${finding.message}`);
    if (finding.severity !== 'info' && finding.suggestedCommand)
      lines.push(colors.dim(`      ${finding.fixable ? 'fix' : 'try'}: ${finding.suggestedCommand}`));
  }
  if (taken && taken.length > 0) {
    lines.push(
      '',
      'Repairs:',
      ...taken.map(
        (action) =>
          `  ${action.ok ? colors.green('✓') : colors.red('✗')} ${action.message}${action.error ? `: ${action.error}` : ''}`,
      ),
    );
  } else if (report.actions.length > 0) {
    lines.push(
      '',
      mode === 'dry-run' ? 'Would repair (--fix applies these):' : "Repairs 'mcp-bash doctor --fix' would make:",
    );
    lines.push(...report.actions.map((action) => `  - ${action.message}`));
  }
  lines.push('', `${report.count('error')} error(s), ${report.count('warning')} warning(s).`, '');
  io.stdout.write(lines.join('\n'));
}

function jsonReport(
  report: DoctorReport,
  exitCode: number,
  proposed: DoctorReport['actions'],
  taken: readonly ActionTaken[],
): object {
  return {
    exitCode,
    findings: report.findings,
    proposedActions: proposed.map(({ id, message, command }) => ({ id, message, command })),
    actionsTaken: taken,
    ...report.sections,
    errors: report.count('error'),
    warnings: report.count('warning'),
  };
}

function refuseInstallFlags(options: ParsedOptions): void {
  const used = INSTALL_FLAGS.filter((flag) => options.flags[flag] !== undefined && options.flags[flag] !== false);
  if (used.length === 0) return;
  throw new CliError(
    `${used.map((flag) => `--${flag}`).join(', ')}: mcp-bash 2.x is a single binary, and doctor does not install or upgrade it`,
    // 1.x's status for "asked to modify an install doctor does not manage".
    POLICY_REFUSAL,
    'To upgrade, download the release binary for your platform (check it against SHA256SUMS) and replace this one, or run the install script again.',
  );
}

/** `mcp-bash doctor`: is this install, this machine and this project ready to serve tools? */
export const command: Command = {
  name: 'doctor',
  summary: 'Diagnose the install, the machine and the project; --fix repairs what it can',
  usage,
  details: [
    'Options:',
    '  --json              one JSON line (schemaVersion 1): findings, proposedActions,',
    '                      actionsTaken, framework, runtime, install, shim, macOS, windows,',
    "                      project (1.x's sections), plus binary, assets and optional",
    '  --dry-run           list the repairs --fix would make, change nothing',
    '  --fix               repair: extract the framework files again when they are damaged,',
    '                      (re)link ~/.local/bin/mcp-bash to this binary, lift macOS quarantine',
    '  --min-version X.Y.Z fail when this mcp-bash is older',
    '',
    'Checks: this binary; its extracted framework files against the archive inside it (every',
    'file by SHA-256); bash; jq/gojq (else the built-in jq); the temp dir; mcp-bash on PATH and',
    'the ~/.local/bin link; the project here and server.d/requirements.json (framework.minVersion,',
    'dependencies). 1.x upgrade flags (--archive, --verify, --ref, --allow-downgrade) are refused:',
    'upgrade by replacing the binary.',
    'Exit status: 0 healthy, 1 errors (or a repair failed), 2 usage, 3 refused (1.x upgrade flags).',
  ].join('\n'),
  async run(argv, context) {
    const options = parseOptions(
      argv,
      {
        string: ['min-version', 'archive', 'verify', 'ref', 'version'],
        boolean: ['json', 'fix', 'dry-run', 'allow-downgrade'],
      },
      usage,
    );
    if (options.positionals.length > 0) throw new UsageError(`unexpected argument "${options.positionals[0]}"`, usage);
    if (options.boolean('fix') && options.boolean('dry-run'))
      throw new UsageError('--fix and --dry-run cannot be combined', usage);
    refuseInstallFlags(options);
    const minVersion = options.string('min-version');
    let report = diagnose(context, minVersion);
    const proposed = report.actions;
    let taken: ActionTaken[] = [];
    if (options.boolean('fix') && proposed.length > 0) {
      taken = applyRepairs(report);
      report = diagnose(context, minVersion);
    }
    const failed = report.count('error') > 0 || taken.some((action) => !action.ok);
    const exitCode = failed ? ExitCode.Failure : ExitCode.Ok;
    if (options.boolean('json')) writeJsonReport(context.io.stdout, jsonReport(report, exitCode, proposed, taken));
    else
      printHuman(
        context.io,
        report,
        options.boolean('fix') ? taken : undefined,
        options.boolean('dry-run') ? 'dry-run' : options.boolean('fix') ? 'fix' : 'check',
      );
    return exitCode;
  },
};
