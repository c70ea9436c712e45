import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { type Config, loadConfig, problemsFor } from '../../config/config.js';
import type { Env } from '../../config/env-values.js';
import { minimalModeReason } from '../../config/server-config.js';
import type { Part } from '../../config/setting.js';
import type { ServerLog } from '../../mcp/logging.js';
import { toWireError } from '../../mcp/wire-errors.js';
import type { ProjectContext } from '../../project/project-context.js';
import { readRegistryCache } from '../../project/registry/registry-cache.js';
import { fallbackRoots, type RootEntry } from '../../project/roots.js';
import type { ToolDefinition } from '../../project/tools/tool-definition.js';
import { type PreparedToolCall, prepareToolCall } from '../../runner/tool-call-checks.js';
import { executeToolCall, timeoutPolicy } from '../../runner/tool-execution.js';
import type { ClientRequestBridge, ToolRuntime } from '../../runner/tool-runtime.js';
import { RpcError } from '../../spec/rpc-error.js';
import type { CallToolResult } from '../../spec/types.js';
import { CliError, ExitCode, UsageError } from '../cli-error.js';
import { cliLog, cliRegistries, requireProject, withStateDir } from '../cli-project.js';
import type { CliIo, CommandContext, ParsedCommand } from '../command.js';
import type { ParsedOptions } from '../parse-options.js';
import { withProgress } from '../progress.js';
import { requireBash } from '../require-bash.js';
import { parseRootsOption } from '../run-tool/roots-option.js';
import { runToolRuntime } from '../run-tool/run-tool-runtime.js';
import { type EnvFiles, envFilesFor, filesToSource, sourceEnvFiles } from '../run-tool/sourced-env.js';
import { parseToolArguments, sampleResponse } from '../run-tool/tool-arguments.js';

const usage =
  'mcp-bash run-tool <name> [--args JSON|@FILE] [--roots a,b] [--dry-run] [--timeout SECS] [--verbose] ' +
  '[--no-refresh] [--minimal] [--project-root DIR] [--print-env] [--allow-self] [--allow TOOL]... ' +
  '[--allow-all] [--with-server-env] [--source FILE]... [--sample-response TEXT|@FILE]';

interface RunToolRequest {
  readonly name: string;
  readonly options: ParsedOptions;
  readonly project: ProjectContext;
  readonly roots: readonly RootEntry[];
  readonly envFiles: EnvFiles;
  readonly timeoutSecs: number | undefined;
  /** --no-refresh (an absent flag also reads as refresh=false, so the words decide). */
  readonly noRefresh: boolean;
}

/** Seconds, fractions allowed (`0.5`; 1.x took whole seconds only, D224). */
function parseTimeout(value: string | undefined): number | undefined {
  if (value === undefined) return undefined;
  if (!/^(\d+(\.\d*)?|\.\d+)$/.test(value) || Number(value) <= 0)
    throw new UsageError(`--timeout must be a positive number of seconds (e.g. 10 or 0.5), not "${value}"`, usage);
  return Number(value);
}

function readRequest(options: ParsedOptions, context: CommandContext): RunToolRequest {
  const { io, config } = context;
  const { argv } = options;
  const name = options.positionals[0];
  if (name === undefined || name === '') throw new UsageError('a tool name is required', usage);
  const project = requireProject(io, options.string('project-root'), context.config);
  const rootsOption = options.string('roots');
  const warn = (message: string) => io.stderr.write(`mcp-bash run-tool: warning: ${message}\n`);
  const roots =
    rootsOption !== undefined
      ? parseRootsOption(rootsOption, io.cwd)
      : fallbackRoots(project.layout, config.values.MCPBASH_ROOTS, warn);
  const envFiles = envFilesFor({
    serverEnv: options.boolean('with-server-env') || config.values.MCPBASH_RUN_TOOL_SOURCE_SERVER_ENV,
    sources: options.list('source'),
    serverDir: project.layout.serverDir,
    root: project.layout.root,
  });
  const flagWords = argv.includes('--') ? argv.slice(0, argv.indexOf('--')) : argv;
  return {
    name,
    options,
    project,
    roots,
    envFiles,
    timeoutSecs: parseTimeout(options.string('timeout')),
    noRefresh: flagWords.includes('--no-refresh'),
  };
}

function extraAllowed(request: RunToolRequest): string[] {
  const { options } = request;
  if (options.boolean('allow-all')) return ['*'];
  return [...(options.boolean('allow-self') ? [request.name] : []), ...options.list('allow')];
}

/** `--print-env`: what the call would use, without running anything (1.x's lines). */
function printEnv(io: CliIo, context: CommandContext, request: RunToolRequest): void {
  const home = context.frameworkHome();
  const { options } = request;
  const lines = [
    `MCPBASH_PROJECT_ROOT=${request.project.layout.root}`,
    `MCPBASH_HOME=${home.root}`,
    `MCP_SDK=${home.sdkDir}`,
    `MCPBASH_MODE=${options.boolean('minimal') || minimalModeReason(context.config.values) ? 'minimal' : 'full'}`,
  ];
  const { serverEnv, sources } = request.envFiles;
  if (serverEnv)
    lines.push(`WILL_SOURCE_SERVER_ENV=${existsSync(serverEnv) ? serverEnv : `(not found: ${serverEnv})`}`);
  for (const [index, file] of sources.entries()) {
    lines.push(`WILL_SOURCE[${index}]=${existsSync(file) ? file : `(not found: ${file})`}`);
  }
  if (request.roots.length === 0) lines.push('ROOTS=none');
  for (const [index, root] of request.roots.entries()) lines.push(`ROOT[${index}]=${root.path}`);
  io.stdout.write(`${lines.join('\n')}\n`);
}

/** Tools from `.registry/tools.json` as it is (`--no-refresh`); missing or invalid is an error. */
function cachedTools(project: ProjectContext, runtime: ToolRuntime): () => Promise<readonly ToolDefinition[]> {
  const file = join(project.layout.registryDir, 'tools.json');
  return async () => {
    const cached = readRegistryCache<ToolDefinition>(file, Number.MAX_SAFE_INTEGER);
    if (!cached)
      throw new CliError(
        `--no-refresh: ${file} is missing or invalid`,
        ExitCode.Failure,
        "Run 'mcp-bash registry refresh' first, or drop --no-refresh.",
      );
    runtime.log.debug('mcp.tools', `using ${cached.envelope.items.length} tools from ${file}`);
    return cached.envelope.items;
  };
}

function printDryRun(io: CliIo, request: RunToolRequest, prepared: PreparedToolCall, runtime: ToolRuntime): void {
  const policy = timeoutPolicy(prepared, runtime, request.timeoutSecs);
  io.stdout.write(
    [
      `Tool: ${prepared.tool.name}`,
      `Args: ${Buffer.byteLength(JSON.stringify(prepared.args))} bytes`,
      `Roots: ${request.roots.length}`,
      `Timeout: ${policy ? policy.timeoutSecs : 'none'}`,
      'Status: Ready to execute (re-run without --dry-run to run)',
      '',
    ].join('\n'),
  );
}

/** Tool logs (and progress, with --verbose) as stderr lines: there is no client to send them to. */
function stderrNotifier(io: CliIo, verbose: boolean): (method: string, params: object) => void {
  return (method, params) => {
    const p = params as Record<string, unknown>;
    if (method === 'notifications/message') {
      const data = typeof p.data === 'string' ? p.data : JSON.stringify(p.data);
      io.stderr.write(`[${String(p.level)}]${p.logger ? ` ${String(p.logger)}:` : ''} ${data}\n`);
    } else if (method === 'notifications/progress' && verbose) {
      io.stderr.write(
        `[progress] ${String(p.progress)}${p.total !== undefined ? `/${String(p.total)}` : ''}` +
          `${p.message ? ` ${String(p.message)}` : ''}\n`,
      );
    }
  };
}

/** Ctrl-C or TERM cancels the call: the tool's process group is stopped as the server would. */
function cancelOnSignals(controller: AbortController): () => void {
  const signals: NodeJS.Signals[] = ['SIGINT', 'SIGTERM', 'SIGHUP'];
  const handler = () => controller.abort();
  for (const signal of signals) process.once(signal, handler);
  return () => {
    for (const signal of signals) process.removeListener(signal, handler);
  };
}

/**
 * The exit status for a result: 1 when the tool failed with a non-zero exit, else 0. A
 * timeout is a result like any other (1.x printed its isError JSON and exited 0).
 */
export function resultExitCode(result: CallToolResult, timedOut = false): number {
  if (result.isError !== true || timedOut) return ExitCode.Ok;
  const exitCode = (result._meta as { exitCode?: unknown } | undefined)?.exitCode;
  return exitCode === 0 ? ExitCode.Ok : ExitCode.Failure;
}

async function execute(
  io: CliIo,
  request: RunToolRequest,
  prepared: PreparedToolCall,
  runtime: ToolRuntime,
): Promise<number> {
  const controller = new AbortController();
  const release = cancelOnSignals(controller);
  try {
    const verbose = request.options.boolean('verbose');
    let timedOut = false;
    const result = await executeToolCall(
      prepared,
      {
        meta: {},
        progressToken: verbose ? `run-tool-${request.name}` : undefined,
        signal: controller.signal,
        ...(request.timeoutSecs !== undefined ? { timeoutSecs: request.timeoutSecs } : {}),
        notify: stderrNotifier(io, verbose),
        ...sampling(request.options, io.cwd),
        onTimedOut: () => {
          timedOut = true;
        },
      },
      runtime,
    );
    io.stdout.write(`${JSON.stringify(result)}\n`);
    return resultExitCode(result, timedOut);
  } finally {
    release();
    await runtime.processes.stopAll(runtime.config.killGraceMs);
    await runtime.callDirectories.close();
  }
}

/** `--sample-response`: a sampling bridge that answers every request with it (D294). */
function sampling(options: ParsedOptions, cwd: string): { sampling?: ClientRequestBridge } {
  const option = options.string('sample-response');
  if (option === undefined) return {};
  const content = sampleResponse(option, cwd);
  return { sampling: { supported: true, ask: async () => ({ action: 'accept', content }) } };
}

/** The parts of a tool call whose settings run-tool reads. */
const RUN_TOOL_PARTS: readonly Part[] = ['tools', 'registry', 'logging', 'project', 'json-tool', 'cli:run-tool'];

/**
 * The configuration of the launch environment (env files sourced, --minimal applied): what
 * the files changed is parsed too, and warned about when unusable (the rest was at start).
 */
function launchConfig(context: CommandContext, env: Env): Config {
  if (env === context.io.env) return context.config;
  const config = loadConfig(env);
  const known = new Set(problemsFor(context.config, RUN_TOOL_PARTS));
  for (const problem of problemsFor(config, RUN_TOOL_PARTS)) {
    if (!known.has(problem) && !config.values.MCPBASH_QUIET)
      context.io.stderr.write(`mcp-bash run-tool: warning: ${problem}\n`);
  }
  return config;
}

async function runCall(context: CommandContext, request: RunToolRequest, log: ServerLog): Promise<number> {
  const { io } = context;
  const { options } = request;
  const base = options.boolean('minimal') ? { ...io.env, MCPBASH_FORCE_MINIMAL: 'true' } : io.env;
  const files = filesToSource(request.envFiles);
  if (options.boolean('verbose')) for (const file of files) io.stderr.write(`mcp-bash run-tool: sourcing ${file}\n`);
  const env = await sourceEnvFiles(files, base, request.project.layout.root);
  const config = launchConfig(context, env);
  const args = parseToolArguments(options.string('args'), io.cwd);
  const home = context.frameworkHome();
  return withStateDir(config, config.values.MCPBASH_PRESERVE_STATE, async (stateDir) => {
    const runtime = runToolRuntime({
      project: request.project,
      home,
      config,
      env,
      stateDir,
      log,
      roots: request.roots,
      extraAllowed: extraAllowed(request),
      liveStderr: options.boolean('verbose') || config.values.MCPBASH_TOOL_STREAM_STDERR ? io.stderr : undefined,
    });
    const loadTools = request.noRefresh
      ? cachedTools(request.project, runtime)
      : () =>
          withProgress(
            io,
            'scanning the tools',
            false,
            async () =>
              (await cliRegistries({ project: request.project, home, config, env, stateDir, log }).tools.snapshot())
                .items,
          );
    const prepared = await prepareToolCall(request.name, args, loadTools, runtime);
    if (options.boolean('dry-run')) {
      printDryRun(io, request, prepared, runtime);
      return ExitCode.Ok;
    }
    return execute(io, request, prepared, runtime);
  });
}

/** `mcp-bash run-tool <name>`: one tool call through the server's own code path, no client. */
export const command: ParsedCommand = {
  name: 'run-tool',
  reads: RUN_TOOL_PARTS,
  summary: "Run one tool without an MCP client (the server's checks, environment and result)",
  usage,
  options: {
    string: ['args', 'roots', 'timeout', 'project-root', 'sample-response'],
    // `refresh`: minimist reads --no-refresh as its negation.
    boolean: ['dry-run', 'verbose', 'refresh', 'minimal', 'print-env', 'allow-self', 'allow-all', 'with-server-env'],
    repeatable: ['allow', 'source'],
  },
  positionals: [{ name: 'tool', missing: 'a tool name is required' }],
  details: [
    'Options:',
    '  --args JSON|@FILE     the arguments object (default {}); @FILE reads it from a file',
    '                        (relative to the current directory; a leading UTF-8 BOM is skipped)',
    '  --roots a,b           MCP roots the tool sees, comma-separated; each must exist',
    '                        (default: MCPBASH_ROOTS, config/roots.json, else the project root)',
    '  --dry-run             check name, policy, arguments (inputSchema); print a summary; run nothing',
    "  --timeout SECS        timeout for this call, fractions allowed (default: the tool's timeoutSecs, else 30)",
    "  --verbose             show the tool's stderr and progress live",
    '  --no-refresh          use .registry/tools.json as it is (fails when missing)',
    '  --minimal             run the tool in minimal mode (MCPBASH_MODE=minimal, no JSON tool)',
    '  --project-root DIR    the project (default: MCPBASH_PROJECT_ROOT, or found from here)',
    '  --print-env           print the paths, mode, env files and roots that would be used',
    '  --allow-self          allow this tool for this run (tools are denied by default)',
    '  --allow TOOL          allow TOOL for this run (repeatable)',
    '  --allow-all           allow every tool for this run (trusted projects only)',
    '  --with-server-env     source server.d/env.sh first (also MCPBASH_RUN_TOOL_SOURCE_SERVER_ENV=1)',
    '  --source FILE         source FILE (relative to the project root) first; repeatable, in order',
    "  --sample-response TEXT|@FILE  the model's answer to the tool's sampling requests (mcp_sample):",
    '                        text, or a CreateMessageResult object (without it: no sampling)',
    '',
    'Prints the CallToolResult as one JSON line and exits 0 (a timeout too: its result says so,',
    'as in 1.x); exits 1 when the tool exited non-zero or the call was refused (the JSON-RPC',
    'error is printed instead).',
    "Env files are sourced by bash with 'set -a' before the call; what they set is part of the",
    'launch environment, so tools see it under MCPBASH_TOOL_ENV_MODE like any server variable.',
    'Elicitation is not available here (the tool sees MCP_ELICIT_SUPPORTED=0); sampling only with',
    '--sample-response (else MCP_SAMPLE_SUPPORTED=0).',
    '',
    'Examples:',
    '  mcp-bash run-tool hello --allow-self --args \'{"name":"Ada"}\'',
    '  mcp-bash run-tool hello --allow-self --args @args.json --roots .,/data --verbose',
    '  mcp-bash run-tool hello --print-env --with-server-env',
  ].join('\n'),
  async run(options, context) {
    const { io } = context;
    const request = readRequest(options, context);
    if (request.options.boolean('print-env')) {
      printEnv(io, context, request);
      return ExitCode.Ok;
    }
    requireBash(io.env);
    const log = cliLog(io, context.config, request.project);
    try {
      return await runCall(context, request, log);
    } catch (thrown) {
      // Registry failures are the project's; they print as the server would answer them.
      const error = toWireError(thrown);
      if (!(error instanceof RpcError)) throw error;
      io.stdout.write(`${JSON.stringify(error.toJSON())}\n`);
      io.stderr.write(`mcp-bash run-tool: ${error.message}\n`);
      // What to do next, when the error says (RpcError data: a string, or {hint}).
      const { data } = error;
      const hint = typeof data === 'string' ? data : (data as { hint?: unknown } | undefined)?.hint;
      if (typeof hint === 'string' && hint !== '') io.stderr.write(`${hint}\n`);
      return ExitCode.Failure;
    }
  },
};
