import type { ProcessResult } from '../process/process-result.js';
import { type ProcessRegistry, runProcess } from '../process/process-runner.js';
import { scriptCommand } from '../process/script-command.js';

export interface ScriptRunOptions {
  readonly script: string;
  readonly args: readonly string[];
  readonly cwd: string;
  readonly env: NodeJS.ProcessEnv;
  readonly maxStdoutBytes: number;
  readonly maxStderrBytes: number;
  readonly stderrTailBytes: number;
  readonly killGraceMs: number;
  /** 0 means no timeout. */
  readonly timeoutMs: number;
  /** The request's signal: cancellation and the end of the session stop the script. */
  readonly signal?: AbortSignal;
  readonly registry?: ProcessRegistry;
}

/**
 * Runs a provider or completion script (started as script-command.ts says) in its own
 * process group with capped output, a timeout (TERM, then KILL) and the caller's cancellation.
 */
export function runScript(options: ScriptRunOptions): Promise<ProcessResult> {
  const { command, args } = scriptCommand(options.script);
  return runProcess({
    command,
    args: [...args, ...options.args],
    cwd: options.cwd,
    env: options.env,
    timeoutMs: options.timeoutMs,
    maxStdoutBytes: options.maxStdoutBytes,
    maxStderrBytes: options.maxStderrBytes,
    stderrTailBytes: options.stderrTailBytes,
    killGraceMs: options.killGraceMs,
    ...(options.signal ? { signal: options.signal } : {}),
    ...(options.registry ? { registry: options.registry } : {}),
  });
}
