import type { FrameworkHome } from '../assets/framework-home.js';
import type { Env } from '../config/env-values.js';
import type { ProviderConfig } from '../config/slices.js';
import type { ProcessResult } from '../process/process-result.js';
import { type ProcessRegistry, type RunProcessOptions, runProcess } from '../process/process-runner.js';
import { scriptCommand } from '../process/script-command.js';
import type { ProjectLayout } from '../project/project-layout.js';

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

/** runProcess's options, with the script in place of the command; `args` follow the script. */
export interface ScriptRunOptions extends Omit<RunProcessOptions, 'command' | 'onStderr' | 'timeoutMs'> {
  readonly script: string;
  /** 0 means no timeout. */
  readonly timeoutMs: number;
  /** The request's signal: cancellation and the end of the session stop the script. */
  readonly signal?: AbortSignal;
}

/**
 * Runs a provider or completion script (started as script-command.ts says) in its own
 * process group with capped output, a timeout (TERM, then KILL) and the caller's cancellation.
 */
export function runScript(options: ScriptRunOptions): Promise<ProcessResult> {
  const { script, args: scriptArgs, ...rest } = options;
  const { command, args } = scriptCommand(script);
  return runProcess({ ...rest, command, args: [...args, ...scriptArgs] });
}
