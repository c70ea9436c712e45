import { type ChildProcess, spawn } from 'node:child_process';
import { StreamCapture, TailCapture } from './output-capture.js';

/** Why a run was stopped from outside; carried as the AbortSignal's reason. */
export interface StopReason {
  readonly kind: 'cancelled' | 'timeout' | 'shutdown' | 'overflow';
  readonly detail?: string;
}

export function isStopReason(value: unknown): value is StopReason {
  return typeof value === 'object' && value !== null && typeof (value as StopReason).kind === 'string';
}

export interface RunProcessOptions {
  readonly command: string;
  readonly args: readonly string[];
  readonly cwd: string;
  readonly env: NodeJS.ProcessEnv;
  /** Aborting stops the process group (TERM, then KILL); the reason ends up in the result. */
  readonly signal?: AbortSignal;
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

export interface RunProcessResult {
  readonly exitCode: number | null;
  readonly signal: NodeJS.Signals | null;
  readonly stdout: Buffer;
  readonly stdoutBytes: number;
  readonly stdoutOverflow: boolean;
  /** The first line of stderr (up to 1 KiB) and its last `stderrTailBytes`. */
  readonly stderrHead: string;
  readonly stderrTail: string;
  readonly stderrBytes: number;
  readonly stderrOverflow: boolean;
  /** Set when the run was stopped from outside (cancel, timeout, shutdown) or for overflow. */
  readonly stopped: StopReason | undefined;
  readonly spawnError: Error | undefined;
  readonly durationMs: number;
}

/**
 * The process groups this server started and that may still be alive, so that shutdown can
 * stop them all, and nothing outlives the server.
 */
export class ProcessRegistry {
  private readonly groups = new Map<number, ProcessGroup>();

  add(group: ProcessGroup): void {
    this.groups.set(group.pid, group);
  }

  delete(group: ProcessGroup): void {
    this.groups.delete(group.pid);
  }

  get size(): number {
    return this.groups.size;
  }

  /** Sends TERM to every group now and KILL after the grace period; resolves after the KILL. */
  async stopAll(graceMs: number): Promise<void> {
    const groups = [...this.groups.values()];
    for (const group of groups) group.signal('SIGTERM');
    if (groups.length === 0) return;
    await new Promise((resolve) => setTimeout(resolve, graceMs));
    for (const group of groups) group.signal('SIGKILL');
  }
}

/** A child started as the leader of a new process group, signalled as a whole. */
export class ProcessGroup {
  constructor(
    readonly child: ChildProcess,
    readonly pid: number,
  ) {}

  signal(signal: NodeJS.Signals): void {
    if (process.platform === 'win32') {
      // No process groups on Windows: end the whole tree; KILL forces it.
      const args = ['/pid', String(this.pid), '/T', ...(signal === 'SIGKILL' ? ['/F'] : [])];
      spawn('taskkill', args, { stdio: 'ignore', windowsHide: true }).on('error', () => this.child.kill(signal));
      return;
    }
    try {
      process.kill(-this.pid, signal);
    } catch {
      // ESRCH: the whole group is already gone.
    }
  }
}

/**
 * Runs a command in a new process group with stdin closed, captures its output within
 * caps, and settles once: on exit (after stopping whatever the process left behind in its
 * group), on abort (TERM the group, KILL after the grace period), or on overflow.
 */
export function runProcess(options: RunProcessOptions): Promise<RunProcessResult> {
  const started = Date.now();
  return new Promise((resolve) => {
    let child: ChildProcess;
    try {
      child = spawn(options.command, [...options.args], {
        cwd: options.cwd,
        env: options.env,
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
    const group = new ProcessGroup(child, child.pid);
    options.registry?.add(group);
    const stdout = new StreamCapture(options.maxStdoutBytes);
    const stderr = new TailCapture(options.maxStderrBytes, options.stderrTailBytes);
    let stopped: StopReason | undefined;
    let killTimer: NodeJS.Timeout | undefined;
    let exit: { code: number | null; signal: NodeJS.Signals | null } | undefined;

    const stop = (reason: StopReason) => {
      if (stopped || exit) return;
      stopped = reason;
      group.signal('SIGTERM');
      killTimer = setTimeout(() => group.signal('SIGKILL'), options.killGraceMs);
      killTimer.unref();
    };
    const onAbort = () => {
      const reason = options.signal?.reason;
      stop(isStopReason(reason) ? reason : { kind: 'cancelled' });
    };
    if (options.signal?.aborted) onAbort();
    else options.signal?.addEventListener('abort', onAbort, { once: true });

    child.stdout?.on('data', (chunk: Buffer) => {
      if (!stdout.push(chunk)) stop({ kind: 'overflow', detail: 'stdout' });
    });
    child.stderr?.on('data', (chunk: Buffer) => {
      options.onStderr?.(chunk);
      if (!stderr.push(chunk)) stop({ kind: 'overflow', detail: 'stderr' });
    });
    child.once('exit', (code, signal) => {
      exit = { code, signal };
      // Windows has no process groups, and a finished PID may already belong to someone else.
      if (process.platform === 'win32') return;
      // Background children the tool left in its group would hold our pipes open: stop them.
      group.signal('SIGTERM');
      const leftovers = setTimeout(() => group.signal('SIGKILL'), options.killGraceMs);
      leftovers.unref();
      child.once('close', () => clearTimeout(leftovers));
    });
    child.once('close', (code, signal) => {
      clearTimeout(killTimer);
      options.signal?.removeEventListener('abort', onAbort);
      options.registry?.delete(group);
      resolve({
        exitCode: exit?.code ?? code,
        signal: exit?.signal ?? signal,
        stdout: stdout.buffer(),
        stdoutBytes: stdout.total,
        stdoutOverflow: stdout.overflow,
        stderrHead: stderr.head(),
        stderrTail: stderr.tail(),
        stderrBytes: stderr.total,
        stderrOverflow: stderr.overflow,
        stopped,
        spawnError: undefined,
        durationMs: Date.now() - started,
      });
    });
    child.once('error', (error) => {
      // Only reached if the process could not be signalled or started after all.
      if (!exit) stop({ kind: 'cancelled', detail: error.message });
    });
  });
}

function failedToStart(error: Error, started: number): RunProcessResult {
  return {
    exitCode: null,
    signal: null,
    stdout: Buffer.alloc(0),
    stdoutBytes: 0,
    stdoutOverflow: false,
    stderrHead: '',
    stderrTail: '',
    stderrBytes: 0,
    stderrOverflow: false,
    stopped: undefined,
    spawnError: error,
    durationMs: Date.now() - started,
  };
}
