import type { ServerConfig } from '../config/server-config.js';
import type { ServerLog } from './logging.js';

/** How the watchdogs end a session, and what they need to know about it. */
export interface WatchdogTargets {
  /** Ends the session at once, aborting running requests (idle, or orphaned). */
  abort(): void;
  /** Ends the session once running requests finish (a shutdown the client never followed with exit). */
  drain(): void;
  /** Requests the engine is running or has queued: a busy session is never idle. */
  activeRequests(): number;
}

/**
 * The timers that end a session on their own: no input for MCPBASH_IDLE_TIMEOUT, the client
 * process gone (we are re-parented), or an MCP shutdown with no exit after it. All of them
 * are unref'd, so none keeps the process alive; `clear` stops them for good.
 */
export class SessionWatchdogs {
  private readonly timers = new Set<NodeJS.Timeout>();
  private idleTimer: NodeJS.Timeout | undefined;
  private cleared = false;

  constructor(
    private readonly config: Pick<ServerConfig, 'idleTimeoutMs' | 'orphanCheckIntervalMs' | 'shutdownTimeoutMs'>,
    private readonly log: ServerLog,
    private readonly targets: WatchdogTargets,
  ) {}

  /** MCPBASH_IDLE_TIMEOUT: no input and no running request for that long ends the session. */
  touchIdle(): void {
    const { idleTimeoutMs } = this.config;
    if (idleTimeoutMs <= 0 || this.cleared) return;
    clearTimeout(this.idleTimer);
    this.idleTimer = setTimeout(() => {
      if (this.targets.activeRequests() > 0) {
        this.touchIdle();
        return;
      }
      this.log.info('mcp.lifecycle', `no input for ${idleTimeoutMs / 1000}s; exiting (MCPBASH_IDLE_TIMEOUT)`);
      this.targets.abort();
    }, idleTimeoutMs);
    this.idleTimer.unref();
  }

  /** Orphan detection: if the client that started us dies, we are re-parented; then exit. */
  watchParent(): void {
    const { orphanCheckIntervalMs } = this.config;
    const parent = process.ppid;
    if (orphanCheckIntervalMs <= 0 || parent <= 1) return;
    const timer = setInterval(() => {
      if (process.ppid === parent) return;
      this.log.info('mcp.lifecycle', 'the client process is gone; exiting');
      this.targets.abort();
    }, orphanCheckIntervalMs);
    timer.unref();
    this.timers.add(timer);
  }

  /** After an MCP shutdown request, the session ends within MCPBASH_SHUTDOWN_TIMEOUT even without exit. */
  armShutdownWatchdog(): void {
    const timer = setTimeout(() => this.targets.drain(), this.config.shutdownTimeoutMs);
    timer.unref();
    this.timers.add(timer);
  }

  /** Stops every timer; the session is ending by other means. */
  clear(): void {
    this.cleared = true;
    for (const timer of this.timers) clearTimeout(timer);
    clearTimeout(this.idleTimer);
  }
}
