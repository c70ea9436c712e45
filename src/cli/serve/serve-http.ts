import type { Readiness } from '../../http/health-endpoints.js';
import { HttpMcpServer } from '../../http/http-server.js';
import type { HttpSettings } from '../../http/http-settings.js';
import { endpointUrl } from '../../http/listen-address.js';
import { SessionFactory } from '../../http/session-factory.js';
import { ServerLog, serverLogOptions } from '../../mcp/logging.js';
import { serverModules } from '../../mcp/server-modules.js';
import { createServerParts, type ServerParts } from '../../mcp/server-parts.js';
import { SessionBroadcast } from '../../mcp/session-broadcast.js';
import { ProcessRegistry } from '../../process/process-runner.js';
import { removeStateDir } from '../../project/state-dir.js';
import { CliError } from '../cli-error.js';
import type { CommandContext } from '../command.js';
import { healthReport, minimalModeReport, withHealthDeadline } from '../health/health-probe.js';
import { versionedReport } from '../json-report.js';
import { onStopSignals, type ServingSetup } from './serve-setup.js';

/** `/readyz`: what `mcp-bash health` checks, on the server's own registries (no rescan). */
function readinessCheck(context: CommandContext, setup: ServingSetup, parts: ServerParts): () => Promise<Readiness> {
  const { env, project, home } = setup;
  // As `mcp-bash health` reads it.
  const seconds = context.config.values.MCPBASH_HEALTH_TIMEOUT_SECS;
  return async () => {
    const minimal = minimalModeReport(context.config.values);
    if (minimal) return { ready: false, report: versionedReport(minimal) };
    const outcome = await withHealthDeadline(seconds, (signal) =>
      healthReport({
        registries: parts.registries,
        rescan: false,
        project,
        home,
        env,
        jsonTool: parts.jsonTool,
        stderr: context.io.stderr,
        signal,
      }),
    );
    if (outcome === 'timeout')
      return {
        ready: false,
        report: versionedReport({ status: 'unhealthy', reason: 'timeout', timeoutSecs: seconds }),
      };
    return { ready: outcome.healthy, report: versionedReport(outcome.report) };
  };
}

/** The HTTP server of a project: the shared parts, the session factory, the endpoints. */
function buildServer(context: CommandContext, setup: ServingSetup, settings: HttpSettings, log: ServerLog) {
  const { env, config, home, project, stateDir } = setup;
  const broadcast = new SessionBroadcast(log);
  const processes = new ProcessRegistry();
  const parts = createServerParts({
    env,
    config,
    home,
    project,
    stateDir,
    processes,
    log: broadcast,
    onHash: broadcast.onHash,
  });
  // Said once here, not by every session.
  for (const warning of project.identity.warnings) log.warning('mcp.lifecycle', warning);
  const quietProject = { ...project, identity: { ...project.identity, warnings: [] } };
  const factory = new SessionFactory(
    {
      stderr: context.io.stderr,
      env,
      config,
      home,
      project: quietProject,
      modules: serverModules,
      trustClientRoots: settings.trustClientRoots,
    },
    parts,
    broadcast,
    stateDir,
  );
  const server = new HttpMcpServer({
    settings,
    session: { factory, log: (level, message) => log.log(level, 'mcp.http', message) },
    readiness: {
      check: readinessCheck(context, setup, parts),
      // As every report: schemaVersion first (test/helpers/cli-output-schemas.ts, healthReportSchema).
      shuttingDownReport: versionedReport({ status: 'unhealthy', reason: 'shutting-down' }),
    },
    log: (level, message) => log.log(level, 'mcp.http', message),
  });
  return { server, processes, registries: parts.registries };
}

/**
 * `mcp-bash serve --http`: one process serving many MCP sessions over Streamable HTTP. The
 * project's registries, the concurrency limit and the tool resources are built once and
 * shared; each session has its own MCP state. Runs until a signal: the first drains (running
 * calls may finish within MCPBASH_SHUTDOWN_TIMEOUT), a second cancels what is left; the exit
 * status is the first signal's (143 for SIGTERM), as for stdio.
 */
export async function serveHttp(context: CommandContext, setup: ServingSetup, settings: HttpSettings): Promise<number> {
  const { config, project, stateDir } = setup;
  const log = new ServerLog(serverLogOptions(config.log, context.io.stderr, project.layout.serverDir));
  const { server, processes, registries } = buildServer(context, setup, settings, log);
  // Handlers first: a SIGTERM right after the listening line must drain, not kill.
  let stopped!: (code: number) => void;
  const stop = new Promise<number>((resolve) => {
    stopped = resolve;
  });
  const remove = onStopSignals((signalCode, first) => {
    if (first) log.info('mcp.http', 'stopping: running calls may finish (MCPBASH_SHUTDOWN_TIMEOUT)');
    void server.shutdown(first ? 'drain' : 'abort').then(() => stopped(signalCode));
  });
  let address: Awaited<ReturnType<HttpMcpServer['listen']>>;
  try {
    address = await server.listen();
  } catch (error) {
    remove();
    throw new CliError(`cannot listen on ${settings.listen.host}:${settings.listen.port}: ${(error as Error).message}`);
  }
  context.io.stderr.write(`mcp-bash: listening on ${endpointUrl(address.host, address.port, settings.path)}\n`);
  const code = await stop;
  remove();
  await processes.stopAll(config.killGraceMs);
  registries.flushCaches();
  if (!config.preserveState) removeStateDir(stateDir);
  return code;
}
