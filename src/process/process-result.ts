import { constants as osConstants } from 'node:os';

/**
 * How a finished process ended, flat (execa's model): its status, whether we stopped it
 * and why, what it wrote (within the caps), and whether it could start at all. Every
 * caller - tool calls, resource providers, completion scripts, project hooks - reads the
 * same record, and `processFailure` gives it one meaning.
 */
export interface ProcessResult {
  readonly exitCode: number | null;
  readonly signal: NodeJS.Signals | null;
  /** Stopped because its time ran out (the run's timeout, or the caller's own watchdog). */
  readonly timedOut: boolean;
  /** Stopped because the caller cancelled it (a client's cancellation, the session ending). */
  readonly isCanceled: boolean;
  /** The stream that went past its cap (the process was stopped); stdout when both did. */
  readonly overflow: 'stdout' | 'stderr' | undefined;
  readonly stdout: Buffer;
  readonly stdoutBytes: number;
  /** The first line of stderr (up to 1 KiB) and its last `stderrTailBytes`. */
  readonly stderrHead: string;
  readonly stderrTail: string;
  readonly stderrBytes: number;
  /** Why the process could not be started, when it could not. */
  readonly spawnError: Error | undefined;
  readonly durationMs: number;
  /**
   * A pipe was still open when the run ended without EOF: held by a process the run no longer
   * waits for (one outside the group, such as a `setsid` daemon, or any after a stop). What it
   * wrote afterwards is not in the result; what the process itself wrote before it exited is.
   */
  readonly pipesHeldOpen: boolean;
}

/** Why a run failed, in the order it is decided: a run that never started, was stopped, or exited non-zero. */
export type ProcessFailure =
  | { readonly kind: 'not-started'; readonly error: Error }
  | { readonly kind: 'cancelled' }
  | { readonly kind: 'timed-out' }
  | { readonly kind: 'overflow'; readonly stream: 'stdout' | 'stderr' }
  | { readonly kind: 'exit'; readonly status: number; readonly signal: NodeJS.Signals | null };

/** The exit status a shell would report: the code, or 128 + the signal's number. */
export function exitStatus(result: Pick<ProcessResult, 'exitCode' | 'signal'>): number {
  if (result.exitCode !== null) return result.exitCode;
  const number = result.signal ? (osConstants.signals as Record<string, number>)[result.signal] : undefined;
  return number === undefined ? 1 : 128 + number;
}

/** What went wrong with a run, or undefined when it started, ran to its end and exited 0. */
export function processFailure(result: ProcessResult): ProcessFailure | undefined {
  if (result.spawnError) return { kind: 'not-started', error: result.spawnError };
  if (result.isCanceled) return { kind: 'cancelled' };
  if (result.timedOut) return { kind: 'timed-out' };
  if (result.overflow) return { kind: 'overflow', stream: result.overflow };
  const status = exitStatus(result);
  return status === 0 ? undefined : { kind: 'exit', status, signal: result.exitCode === null ? result.signal : null };
}

/** How a caller names its process and its limits in failure messages. */
export interface FailureWording {
  /** The process as the message's subject: "Tool 'x'", "Resource provider file", "it". */
  readonly subject: string;
  readonly timeoutSecs?: number;
  /** The cap of each stream, and the setting behind it (named in the message when given). */
  readonly limits?: {
    readonly stdout?: number;
    readonly stderr?: number;
    readonly setting?: string;
  };
  /** Where 1.x or the contract fixed another wording: a sentence, or undefined for the default one. */
  readonly override?: (failure: ProcessFailure) => string | undefined;
}

function defaultMessage(failure: ProcessFailure, wording: FailureWording): string {
  const { subject } = wording;
  switch (failure.kind) {
    case 'not-started':
      // E2BIG says only "spawn E2BIG": name what is too large (a request's arguments in an
      // environment variable, a long URI as an argument).
      if ((failure.error as NodeJS.ErrnoException).code === 'E2BIG') {
        return (
          `${subject} could not be started: its arguments or environment are larger than the system allows ` +
          '(E2BIG; on Linux one argument or variable holds at most 128 KiB)'
        );
      }
      return `${subject} could not be started: ${failure.error.message}`;
    case 'cancelled':
      return `${subject} was cancelled`;
    case 'timed-out':
      return `${subject} timed out${wording.timeoutSecs === undefined ? '' : ` after ${wording.timeoutSecs}s`}`;
    case 'overflow': {
      const limit = wording.limits?.[failure.stream];
      const setting = wording.limits?.setting ? ` (${wording.limits.setting})` : '';
      return `${subject} wrote more than ${limit ?? 'the allowed'} bytes to ${failure.stream}${setting}`;
    }
    case 'exit':
      return failure.signal
        ? `${subject} was killed by ${failure.signal}`
        : `${subject} exited with status ${failure.status}`;
  }
}

/**
 * The one sentence for a failed run (execa's "Command timed out after 5s: ..."): the
 * caller's subject and limits, its fixed wordings where it has them.
 */
export function failureMessage(failure: ProcessFailure, wording: FailureWording): string {
  return wording.override?.(failure) ?? defaultMessage(failure, wording);
}
