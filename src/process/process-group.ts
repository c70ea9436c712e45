import { type ChildProcess, spawn } from 'node:child_process';

const POLL_MS = 50;

/**
 * The process groups this server started that may still have members, so that shutdown can
 * stop them all and nothing outlives the server. A group stays here after its leader exits,
 * until it is empty or has been sent KILL: a child that ignores TERM and closed its pipes is
 * still found.
 */
export class ProcessRegistry {
  private readonly groups = new Map<number, ProcessGroup>();

  add(group: ProcessGroup): void {
    this.groups.set(group.pid, group);
  }

  delete(group: ProcessGroup): void {
    if (this.groups.get(group.pid) === group) this.groups.delete(group.pid);
  }

  get size(): number {
    return this.groups.size;
  }

  /**
   * Sends TERM to every group now and KILL after the grace period to those not yet empty;
   * resolves once every group is empty or KILLed.
   */
  async stopAll(graceMs: number): Promise<void> {
    const groups = [...this.groups.values()];
    for (const group of groups) group.signal('SIGTERM');
    const deadline = Date.now() + graceMs;
    while (groups.some((group) => !group.isEmpty()) && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, Math.min(POLL_MS, Math.max(1, deadline - Date.now()))));
    }
    for (const group of groups) group.kill();
  }
}

/**
 * A child started as the leader of a new process group, signalled as a whole. It registers
 * itself, and leaves the registry once `release` finds it empty or has KILLed what is left.
 */
export class ProcessGroup {
  private releaseTimer: NodeJS.Timeout | undefined;
  private released = false;

  constructor(
    readonly child: ChildProcess,
    readonly pid: number,
    private readonly registry?: ProcessRegistry,
  ) {
    registry?.add(this);
  }

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

  /** Whether no process of the group is left (zombies not yet reaped still count as members). */
  isEmpty(): boolean {
    if (process.platform === 'win32') return this.child.exitCode !== null || this.child.signalCode !== null;
    // The usual answer is an ESRCH error: without a stack it costs a few microseconds, not ~40.
    const stackTraceLimit = Error.stackTraceLimit;
    Error.stackTraceLimit = 0;
    try {
      process.kill(-this.pid, 0);
      return false;
    } catch (error) {
      return (error as NodeJS.ErrnoException).code === 'ESRCH';
    } finally {
      Error.stackTraceLimit = stackTraceLimit;
    }
  }

  /** KILLs whatever is left and leaves the registry. */
  kill(): void {
    clearTimeout(this.releaseTimer);
    if (!this.isEmpty()) this.signal('SIGKILL');
    this.registry?.delete(this);
  }

  /**
   * The run is over (its leader has exited, or we stopped waiting for it): whatever is left
   * in the group gets TERM now and KILL after `graceMs`. The timer keeps the process alive
   * until then, so a short-lived CLI does not leave a TERM-ignoring child behind either.
   */
  release(graceMs: number): void {
    if (this.released) return;
    this.released = true;
    // Windows has no process groups, and a finished PID may already belong to someone else.
    if (process.platform === 'win32' || this.isEmpty()) {
      this.registry?.delete(this);
      return;
    }
    this.signal('SIGTERM');
    this.releaseTimer = setTimeout(() => this.kill(), graceMs);
  }
}
