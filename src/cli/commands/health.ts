import { remoteTokenConfig } from '../../config/server-config.js';
import { jsonToolConfig } from '../../config/slices.js';
import { remoteTokenProblem } from '../../mcp/remote-token.js';
import { chooseJsonTool } from '../../process/json-tool.js';
import { ProcessRegistry } from '../../process/process-runner.js';
import { CliError, UsageError } from '../cli-error.js';
import { cliLog, cliRegistries, requireProject, withStateDir } from '../cli-project.js';
import type { CliIo, CommandContext, ParsedCommand } from '../command.js';
import { healthReport, healthTimeoutOption, minimalModeReport, withHealthDeadline } from '../health/health-probe.js';
import { writeJsonReport } from '../json-report.js';

const usage = 'mcp-bash health [--project-root DIR] [--timeout SECS]   (also: ready, --health, --ready)';

/** Exit statuses of the probe (1.x's). */
const HEALTHY = 0;
const UNHEALTHY = 1;
const MISCONFIGURED = 2;

/** --timeout (whole seconds above 0, else a usage error), else MCPBASH_HEALTH_TIMEOUT_SECS. */
function timeoutSecs(value: string | undefined, context: CommandContext): number {
  if (value === undefined) return context.config.values.MCPBASH_HEALTH_TIMEOUT_SECS;
  const seconds = healthTimeoutOption(value);
  if (seconds === undefined)
    throw new UsageError(`--timeout must be a whole number of seconds above 0, not "${value}"`, usage);
  return seconds;
}

function emit(io: CliIo, report: Record<string, unknown>, code: number): number {
  writeJsonReport(io.stdout, report);
  return code;
}

async function probe(
  context: CommandContext,
  projectRoot: string | undefined,
  signal: AbortSignal,
  processes: ProcessRegistry,
): Promise<{ report: Record<string, unknown>; code: number }> {
  const { io } = context;
  const { config } = context;
  const project = requireProject(io, projectRoot, config, MISCONFIGURED);
  const home = context.frameworkHome();
  const log = cliLog(io, config, project, true);
  return withStateDir(config, false, async (stateDir) => {
    const jsonTool = chooseJsonTool(jsonToolConfig(config.values), io.env, stateDir);
    const { healthy, report } = await healthReport({
      registries: cliRegistries({ project, home, config, env: io.env, stateDir, log, writeCache: false, processes }),
      rescan: true,
      project,
      home,
      env: io.env,
      jsonTool,
      stderr: io.stderr,
      signal,
    });
    return { report, code: healthy ? HEALTHY : UNHEALTHY };
  });
}

/** `mcp-bash health` / `ready`: a readiness probe for supervisors and proxies. */

export const command: ParsedCommand = {
  name: 'health',
  reads: ['registry', 'project', 'logging', 'json-tool', 'cli:health'],
  summary: 'Readiness probe: one JSON line; exit 0 ready, 1 unhealthy, 2 misconfigured',
  usage,
  options: { string: ['project-root', 'timeout'], boolean: ['health', 'ready'] },
  details: [
    'Options:',
    '  --project-root DIR  the project (default: MCPBASH_PROJECT_ROOT, or found from here)',
    '  --timeout SECS      give up after SECS, whole seconds (default MCPBASH_HEALTH_TIMEOUT_SECS, else 5)',
    '',
    'Scans tools, resources, resource templates and prompts (writing no cache, notifying no',
    'client) and runs server.d/health-checks.sh when present and trusted; that script can call',
    'mcp_health_check_command CMD [MSG] and mcp_health_check_env VAR [MSG].',
    'Prints {"status":"ok"|"unhealthy","mode","jsonTool","tools":N,"resources":N,',
    '"resourceTemplates":N,"prompts":N,"projectChecks":"ok"|"failed"|"untrusted"|"none"[,"errors"]}.',
    'Misconfiguration prints {"status":"error","reason":...} and exits 2.',
  ].join('\n'),
  async run(options, context) {
    const { io } = context;
    const seconds = timeoutSecs(options.string('timeout'), context);
    const minimal = minimalModeReport(context.config.values);
    if (minimal) return emit(io, minimal, MISCONFIGURED);
    const tokenProblem = remoteTokenProblem(remoteTokenConfig(context.config.values));
    if (tokenProblem) {
      // The server would refuse to start with this token; a readiness probe must say so.
      return emit(io, { status: 'error', reason: 'remote_token_invalid', message: tokenProblem }, MISCONFIGURED);
    }
    const processes = new ProcessRegistry();
    try {
      const outcome = await withHealthDeadline(seconds, (signal) =>
        probe(context, options.string('project-root'), signal, processes),
      );
      if (outcome === 'timeout') {
        emit(io, { status: 'unhealthy', reason: 'timeout', timeoutSecs: seconds }, UNHEALTHY);
        // A supervisor's probe must end when it says it has: stop what the scan started
        // (a slow register.sh) instead of waiting for it.
        await processes.stopAll(500);
        return UNHEALTHY;
      }
      return emit(io, outcome.report, outcome.code);
    } catch (error) {
      if (!(error instanceof CliError)) throw error;
      io.stderr.write(`mcp-bash health: ${error.message}\n`);
      return emit(io, { status: 'error', reason: 'misconfigured', message: error.message }, MISCONFIGURED);
    }
  },
};
