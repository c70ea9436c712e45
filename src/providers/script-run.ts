import { type ProcessRegistry, type RunProcessResult, runProcess, type StopReason } from '../process/process-runner.js';
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
 * Runs a provider or completion script in its own process group with capped output, a
 * timeout (TERM, then KILL) and the caller's cancellation.
 */
export async function runScript(options: ScriptRunOptions): Promise<RunProcessResult> {
  const stop = new AbortController();
  const timer =
    options.timeoutMs > 0
      ? setTimeout(() => stop.abort({ kind: 'timeout' } satisfies StopReason), options.timeoutMs)
      : undefined;
  const onCancel = () => stop.abort({ kind: 'cancelled' } satisfies StopReason);
  if (options.signal?.aborted) onCancel();
  else options.signal?.addEventListener('abort', onCancel, { once: true });
  const { command, args } = scriptCommand(options.script);
  try {
    return await runProcess({
      command,
      args: [...args, ...options.args],
      cwd: options.cwd,
      env: options.env,
      signal: stop.signal,
      maxStdoutBytes: options.maxStdoutBytes,
      maxStderrBytes: options.maxStderrBytes,
      stderrTailBytes: options.stderrTailBytes,
      killGraceMs: options.killGraceMs,
      ...(options.registry ? { registry: options.registry } : {}),
    });
  } finally {
    clearTimeout(timer);
    options.signal?.removeEventListener('abort', onCancel);
  }
}
