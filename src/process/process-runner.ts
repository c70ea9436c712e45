import { type ChildProcess, spawn } from 'node:child_process';
import type { Readable } from 'node:stream';
import { withoutServerSecrets } from '../config/server-secrets.js';
import { ProcessGroup, type ProcessRegistry } from './process-group.js';
import type { ProcessResult } from './process-result.js';

export { ProcessRegistry } from './process-group.js';

/** Collects a stream up to a byte cap; past the cap it only counts. */
class StreamCapture {
  private readonly chunks: Buffer[] = [];
  private kept = 0;
  total = 0;
  overflow = false;

  constructor(private readonly maxBytes: number) {}

  /** Returns false once the stream has exceeded the cap. */
  push(chunk: Buffer): boolean {
    this.total += chunk.length;
    if (this.overflow) return false;
    if (this.kept + chunk.length > this.maxBytes) {
      this.overflow = true;
      this.chunks.length = 0;
      this.kept = 0;
      return false;
    }
    this.chunks.push(chunk);
    this.kept += chunk.length;
    return true;
  }

  buffer(): Buffer {
    return Buffer.concat(this.chunks, this.kept);
  }
}

const HEAD_BYTES = 1024;

/**
 * Keeps what results need of stderr without buffering all of it: the first line (for error
 * messages) and the last `tailBytes` (for `_meta.stderr`). Counts the total against a cap.
 */
class TailCapture {
  private headBytes = Buffer.alloc(0);
  private tailChunks: Buffer[] = [];
  private tailLength = 0;
  total = 0;
  overflow = false;

  constructor(
    private readonly maxBytes: number,
    private readonly tailBytes: number,
  ) {}

  push(chunk: Buffer): boolean {
    this.total += chunk.length;
    if (this.headBytes.length < HEAD_BYTES) {
      this.headBytes = Buffer.concat([this.headBytes, chunk.subarray(0, HEAD_BYTES - this.headBytes.length)]);
    }
    this.tailChunks.push(chunk);
    this.tailLength += chunk.length;
    while (this.tailChunks.length > 1 && this.tailLength - (this.tailChunks[0] as Buffer).length >= this.tailBytes) {
      this.tailLength -= (this.tailChunks.shift() as Buffer).length;
    }
    if (this.total > this.maxBytes) this.overflow = true;
    return !this.overflow;
  }

  /** The first non-empty line. */
  head(): string {
    const text = this.headBytes.toString('utf8');
    return (
      text
        .split(/\r?\n/)
        .find((line) => line.trim() !== '')
        ?.trim() ?? ''
    );
  }

  /** The last `tailBytes` bytes, cut at a character boundary. */
  tail(): string {
    if (this.tailBytes <= 0) return '';
    const all = Buffer.concat(this.tailChunks, this.tailLength);
    let start = Math.max(0, all.length - this.tailBytes);
    // Do not start inside a multi-byte UTF-8 sequence.
    while (start < all.length && start > 0 && ((all[start] as number) & 0xc0) === 0x80) start += 1;
    return all.subarray(start).toString('utf8');
  }
}

/**
 * After a process exits, how often we look whether a pipe it left open has a reason to be
 * open. Nothing is cut on a clock alone: a pipe is read to its end (EOF) while a process of
 * the group is alive (the group gets TERM, then KILL); only a pipe still open once the group
 * is gone (or KILLed) is held by a process outside it (a `setsid` daemon) and is cut, after
 * one more read of what already waits in it.
 */
const PIPE_CHECK_MS = 100;

/**
 * Runs `then` once the event loop has polled for I/O at least once more: bytes already
 * waiting in a pipe have been read by then. One setImmediate is not enough: queued from the
 * poll phase (where exits are reaped) it runs before the next poll.
 */
function afterNextPoll(then: () => void): void {
  setImmediate(() => setImmediate(then));
}

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
 * caps, and settles once: when its pipes reach EOF, or (a pipe held by a process outside the
 * group) once the rest of the group is gone; a stop (abort, overflow) sends TERM to the group,
 * KILL after the grace period, and settles at the latest shortly after that. Whatever is left
 * in the group when the run ends gets TERM then KILL (ProcessGroup.release). Output written
 * before the process exited is never cut (`pipesHeldOpen` says when anything was).
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
    const pipesHeldOpen = closed === undefined && !(isAtEnd(child.stdout) && isAtEnd(child.stderr));
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
      pipesHeldOpen,
    });
  };
  /** Settles after the loop has read what already waits in the pipes. */
  const settleAfterReads = () => afterNextPoll(() => settle());
  const stop = (reason: StopReason) => {
    if (stopped || settled) return;
    stopped = reason;
    // The process is gone; only its pipes were still open: the call ends now.
    if (exit) return settleAfterReads();
    group.signal('SIGTERM');
    timers.push(setTimeout(() => group.signal('SIGKILL'), options.killGraceMs));
    // A stop always ends the run, even if the process never reports its exit.
    timers.push(setTimeout(settleAfterReads, options.killGraceMs + 2 * PIPE_CHECK_MS));
  };
  // After the exit, EOF of both pipes ('close') settles the run. A pipe still open is held by
  // a living process: one of the group is TERMed (release) and KILLed after the grace period,
  // which closes it; once the group is gone (or KILLed: unreaped zombies stay members), what
  // still holds it is outside the group and is not waited for.
  const watchHeldPipes = () => {
    const deadline = Date.now() + options.killGraceMs + PIPE_CHECK_MS;
    const check = () => {
      if (group.isEmpty() || Date.now() >= deadline) settleAfterReads();
      else timers.push(setTimeout(check, PIPE_CHECK_MS));
    };
    timers.push(setTimeout(check, PIPE_CHECK_MS));
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
    watchHeldPipes();
  });
  child.once('close', (code, signal) => settle({ code, signal }));
  child.once('error', (error) => {
    // Only reached if the process could not be signalled or started after all.
    if (!exit) stop({ kind: 'cancelled', detail: error.message });
  });
}

/** Whether a child's pipe has been read to its end (or there is none). */
function isAtEnd(stream: Readable | null): boolean {
  return stream === null || stream.readableEnded;
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
    pipesHeldOpen: false,
  };
}
