/** Why a tool ran out of time (the `reason` of the timeout result). */
export type TimeoutReason = 'fixed' | 'idle' | 'max_exceeded';

export interface TimeoutPolicy {
  readonly timeoutSecs: number;
  /** Idle mode: the timeout restarts on every progress activity. */
  readonly progressExtendsTimeout: boolean;
  /** Idle mode's hard cap. */
  readonly maxTimeoutSecs: number;
}

/**
 * Fixed mode expires `timeoutSecs` after the start. Idle mode expires `timeoutSecs` after
 * the last activity, and in any case `maxTimeoutSecs` after the start.
 */
export class TimeoutWatchdog {
  private idleTimer: NodeJS.Timeout | undefined;
  private capTimer: NodeJS.Timeout | undefined;
  private expired = false;

  constructor(
    private readonly policy: TimeoutPolicy,
    private readonly onExpire: (reason: TimeoutReason) => void,
  ) {
    if (policy.progressExtendsTimeout) {
      this.capTimer = setTimeout(() => this.expire('max_exceeded'), policy.maxTimeoutSecs * 1000);
      this.armIdle();
    } else {
      this.idleTimer = setTimeout(() => this.expire('fixed'), policy.timeoutSecs * 1000);
    }
  }

  /** Progress activity: restarts the idle timeout (no effect in fixed mode). */
  touch(): void {
    if (this.policy.progressExtendsTimeout && !this.expired) this.armIdle();
  }

  stop(): void {
    clearTimeout(this.idleTimer);
    clearTimeout(this.capTimer);
  }

  private armIdle(): void {
    clearTimeout(this.idleTimer);
    this.idleTimer = setTimeout(() => this.expire('idle'), this.policy.timeoutSecs * 1000);
  }

  private expire(reason: TimeoutReason): void {
    if (this.expired) return;
    this.expired = true;
    this.stop();
    this.onExpire(reason);
  }
}
