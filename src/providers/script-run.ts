import type { ProcessResult } from '../process/process-result.js';
import { type RunProcessOptions, runProcess } from '../process/process-runner.js';
import { scriptCommand } from '../process/script-command.js';

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
