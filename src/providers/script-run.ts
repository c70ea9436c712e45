import type { FrameworkHome } from '../assets/framework-home.js';
import type { Env } from '../config/env-values.js';
import type { ProviderConfig } from '../config/slices.js';
import { type FailureWording, failureMessage, type ProcessResult, processFailure } from '../process/process-result.js';
import { type ProcessRegistry, runProcess } from '../process/process-runner.js';
import { scriptCommand } from '../process/script-command.js';
import { ProjectError } from '../project/project-error.js';
import type { ProjectLayout } from '../project/project-layout.js';
import { buildProviderEnvironment } from './provider-environment.js';

/** What running a project's provider or completion scripts needs from the server. */
export interface ScriptHost {
  readonly layout: ProjectLayout;
  readonly home: FrameworkHome;
  /** The environment the scripts start from. */
  readonly env: Env;
  /** What the scripts inherit (the providers' rules), and MCP_RESOURCES_ROOTS. */
  readonly config: ProviderConfig;
  readonly stderrTailBytes: number;
  readonly killGraceMs: number;
  readonly processes: ProcessRegistry;
  /** A path that starts this mcp-bash, for the scripts as MCPBASH_BIN (file.sh runs it). */
  readonly selfBinary: string;
}

/** One run of a provider or completion script. */
export interface ScriptRun {
  readonly script: string;
  readonly args: readonly string[];
  /** Variables of this run (completion arguments, JSON tool, ...). */
  readonly extra?: Readonly<Record<string, string>>;
  /** The session's configured MCP roots (paths), allowed to the file provider besides resources/. */
  readonly sessionRoots?: readonly string[];
  readonly maxStdoutBytes: number;
  readonly maxStderrBytes: number;
  /** 0 means no timeout. */
  readonly timeoutMs: number;
  /** The request's signal: cancellation and the end of the session stop the script. */
  readonly signal?: AbortSignal;
}

/**
 * Runs a provider or completion script (started as script-command.ts says) with the curated
 * provider environment and cwd = project root, in its own process group with capped output,
 * a timeout (TERM, then KILL) and the caller's cancellation.
 */
export function runScript(host: ScriptHost, run: ScriptRun): Promise<ProcessResult> {
  const { script, args: scriptArgs, extra, sessionRoots, ...limits } = run;
  const { command, args } = scriptCommand(script);
  return runProcess({
    ...limits,
    command,
    args: [...args, ...scriptArgs],
    cwd: host.layout.root,
    env: buildProviderEnvironment(host, { ...(extra ? { extra } : {}), ...(sessionRoots ? { sessionRoots } : {}) }),
    stderrTailBytes: host.stderrTailBytes,
    killGraceMs: host.killGraceMs,
    registry: host.processes,
  });
}

/**
 * A completion or prompt script's failure as the -32603 error it is: a non-zero exit says
 * its stderr (else `exitMessage`) and carries the exit code; a timeout, a cap or a
 * cancellation is worded by `wording`. Returns when the script succeeded.
 */
export function throwIfScriptFailed(
  run: ProcessResult,
  wording: FailureWording,
  exitMessage: string,
  data: Record<string, unknown>,
): void {
  const failure = processFailure(run);
  if (failure?.kind === 'exit')
    throw ProjectError.failed(run.stderrTail.trim() || exitMessage, { ...data, exitCode: run.exitCode });
  if (failure) throw ProjectError.failed(failureMessage(failure, wording), data);
}
