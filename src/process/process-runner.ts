import { type ChildProcess, spawn } from 'node:child_process';
import { withoutServerSecrets } from '../config/server-secrets.js';
import { StreamCapture, TailCapture } from './output-capture.js';
import { ProcessGroup, type ProcessRegistry } from './process-group.js';
import type { ProcessResult } from './process-result.js';

export { ProcessGroup, ProcessRegistry } from './process-group.js';

/**
 * How long a finished process's pipes are still read: output already written is in the pipe
 * and arrives at once; a pipe still open after this is held by a process outside the group
 * (a `setsid` daemon), which must not hold the call.
 */
const PIPE_DRAIN_MS = 250;

/** Why a run was stopped from outside; carried as the AbortSignal's reason. */
export interface StopReason {
  readonly kind: 'cancelled' | 'timeout' | 'shutdown' | 'overflow';
  readonly detail?: string;
}

const STOP_KINDS: ReadonlySet<unknown> = new Set(['cancelled', 'timeout', 'shutdown', 'overflow']);

function isStopReason(value: unknown): value is StopReason {
  return typeof value === 'object' && value !== null && STOP_KINDS.has((value as StopReason).kind);
}

export interface RunProcessOptions {
  readonly command: string;
  readonly args: readonly string[];
  readonly cwd: string;
  readonly env: NodeJS.ProcessEnv;
  /** Aborting stops the process group (TERM, then KILL); a StopReason says why (else: cancelled). */
  readonly signal?: AbortSignal;
  /** Stops the run after this long (TERM, then KILL): `timedOut` in the result. 0 or absent: none. */
  readonly timeoutMs?: number;
  /** stdout beyond this is not kept and stops the process (the result is decided anyway). */
  readonly maxStdoutBytes: number;
  /** stderr beyond this stops the process; only its head line and tail are kept. */
  readonly maxStderrBytes: number;
  readonly stderrTailBytes: number;
  /** Time between TERM and KILL. */
  readonly killGraceMs: number;
  /** Live stderr (run-tool --verbose, MCPBASH_TOOL_STREAM_STDERR). */
  readonly onStderr?: (chunk: Buffer) => void;
  readonly registry?: ProcessRegistry;
}

/**
 * Runs a command in a new process group with stdin closed, captures its output within
 * caps, and settles once: when its pipes close, or PIPE_DRAIN_MS after it exits with a pipe
 * still held open; a stop (abort, overflow) sends TERM to the group, KILL after the grace
 * period, and settles at the latest shortly after that. Whatever is left in the group when
 * the run ends gets TERM then KILL (ProcessGroup.release).
 */
export function runProcess(options: RunProcessOptions): Promise<ProcessResult> {
  const started = Date.now();
  return new Promise((resolve) => {
    let child: ChildProcess;
    try {
      child = spawn(options.command, [...options.args], {
        cwd: options.cwd,
        // Every process we start comes through here: none gets the server's own secrets.
        env: withoutServerSecrets(options.env),
        // No stdin: a tool that reads it gets EOF at once instead of hanging the call.
        stdio: ['ignore', 'pipe', 'pipe'],
        detached: process.platform !== 'win32',
        windowsHide: true,
      });
    } catch (error) {
      resolve(failedToStart(error as Error, started));
      return;
    }
    if (child.pid === undefined) {
      child.once('error', (error) => resolve(failedToStart(error, started)));
      return;
    }
    superviseRun(child, new ProcessGroup(child, child.pid, options.registry), options, started, resolve);
  });
}

/** Watches a started run: output capture, exit, pipe close, stops; resolves exactly once. */
function superviseRun(
  child: ChildProcess,
  group: ProcessGroup,
  options: RunProcessOptions,
  started: number,
  resolve: (result: ProcessResult) => void,
): void {
  const stdout = new StreamCapture(options.maxStdoutBytes);
  const stderr = new TailCapture(options.maxStderrBytes, options.stderrTailBytes);
  const timers: NodeJS.Timeout[] = [];
  let stopped: StopReason | undefined;
  let exit: { code: number | null; signal: NodeJS.Signals | null } | undefined;
  let settled = false;

  const settle = (closed?: { code: number | null; signal: NodeJS.Signals | null }) => {
    if (settled) return;
    settled = true;
    for (const timer of timers) clearTimeout(timer);
    options.signal?.removeEventListener('abort', onAbort);
    // Stop reading: a pipe still open here is held by someone we no longer wait for.
    child.stdout?.destroy();
    child.stderr?.destroy();
    group.release(options.killGraceMs);
    resolve({
      exitCode: exit?.code ?? closed?.code ?? null,
      signal: exit?.signal ?? closed?.signal ?? null,
      timedOut: stopped?.kind === 'timeout',
      isCanceled: stopped?.kind === 'cancelled' || stopped?.kind === 'shutdown',
      overflow: stdout.overflow ? 'stdout' : stderr.overflow ? 'stderr' : undefined,
      stdout: stdout.buffer(),
      stdoutBytes: stdout.total,
      stderrHead: stderr.head(),
      stderrTail: stderr.tail(),
      stderrBytes: stderr.total,
      spawnError: undefined,
      durationMs: Date.now() - started,
    });
  };
  const stop = (reason: StopReason) => {
    if (stopped || settled) return;
    stopped = reason;
    // The process is gone; only its pipes were still open: the call ends now.
    if (exit) return settle();
    group.signal('SIGTERM');
    timers.push(setTimeout(() => group.signal('SIGKILL'), options.killGraceMs));
    // A stop always ends the run, even if the process never reports its exit.
    timers.push(setTimeout(() => settle(), options.killGraceMs + 2 * PIPE_DRAIN_MS));
  };
  const onAbort = () => {
    const reason = options.signal?.reason;
    stop(isStopReason(reason) ? reason : { kind: 'cancelled' });
  };
  if (options.signal?.aborted) onAbort();
  else options.signal?.addEventListener('abort', onAbort, { once: true });
  if (options.timeoutMs) timers.push(setTimeout(() => stop({ kind: 'timeout' }), options.timeoutMs));

  child.stdout?.on('data', (chunk: Buffer) => {
    if (!stdout.push(chunk)) stop({ kind: 'overflow', detail: 'stdout' });
  });
  child.stderr?.on('data', (chunk: Buffer) => {
    options.onStderr?.(chunk);
    if (!stderr.push(chunk)) stop({ kind: 'overflow', detail: 'stderr' });
  });
  child.once('exit', (code, signal) => {
    exit = { code, signal };
    // Background children left in the group would hold our pipes open: TERM them now.
    group.release(options.killGraceMs);
    timers.push(setTimeout(() => settle(), PIPE_DRAIN_MS));
  });
  child.once('close', (code, signal) => settle({ code, signal }));
  child.once('error', (error) => {
    // Only reached if the process could not be signalled or started after all.
    if (!exit) stop({ kind: 'cancelled', detail: error.message });
  });
}

function failedToStart(error: Error, started: number): ProcessResult {
  return {
    exitCode: null,
    signal: null,
    timedOut: false,
    isCanceled: false,
    overflow: undefined,
    stdout: Buffer.alloc(0),
    stdoutBytes: 0,
    stderrHead: '',
    stderrTail: '',
    stderrBytes: 0,
    spawnError: error,
    durationMs: Date.now() - started,
  };
}
