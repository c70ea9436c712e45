import { existsSync } from 'node:fs';
import { join } from 'node:path';
import type { Writable } from 'node:stream';
import type { LogConfig } from '../config/slices.js';
import { type LoggingLevel, levelRank } from '../spec/logging-levels.js';
import type { LoggingMessageParams } from '../spec/types.js';

/**
 * The level at start-up: MCPBASH_LOG_LEVEL (`true`/`1` mean debug, `false`/`0` info); when
 * unset (or not a level), a `server.d/.debug` file means debug; then MCPBASH_LOG_LEVEL_DEFAULT (info).
 */
function initialLoggingLevel(log: LogConfig, serverDir: string | undefined): LoggingLevel {
  if (log.level) return log.level;
  if (serverDir && existsSync(join(serverDir, '.debug'))) return 'debug';
  return log.levelDefault;
}

/** stderr, its start-up level (the client's too until it sets its own), MCPBASH_QUIET and MCPBASH_LOG_TIMESTAMP. */
export function serverLogOptions(log: LogConfig, stderr: Writable, serverDir: string | undefined) {
  return { stderr, level: initialLoggingLevel(log, serverDir), quiet: log.quiet, timestamps: log.timestamps };
}

type ServerLogOptions = ReturnType<typeof serverLogOptions>;

/**
 * The server's log: diagnostics to stderr, and - once a client is attached and ready - to
 * the client as `notifications/message`. Each side has its own threshold: stderr keeps the
 * start-up level (MCPBASH_LOG_LEVEL), the client's follows `logging/setLevel`, so a quiet
 * client never hides from the operator why a request failed.
 */
export class ServerLog {
  /** The client's level (`logging/setLevel`); starts at the start-up level. */
  level: LoggingLevel;
  private sendToClient: ((params: LoggingMessageParams) => void) | undefined;

  constructor(private readonly options: ServerLogOptions) {
    this.level = options.level;
  }

  /** Connects the client side; `send` is expected to drop messages until the session is ready. */
  attachClient(send: (params: LoggingMessageParams) => void): void {
    this.sendToClient = send;
  }

  /** Whether a message at `level` reaches the client. */
  isEnabled(level: LoggingLevel): boolean {
    return levelRank(level) >= levelRank(this.level);
  }

  /** A server diagnostic under `logger` (e.g. `mcp.tools`), to stderr and the client, each by its own level. */
  log(level: LoggingLevel, logger: string, message: string): void {
    this.toStderr(level, logger, message);
    if (this.isEnabled(level)) this.sendToClient?.({ level, logger, data: message });
  }

  readonly debug = (logger: string, message: string): void => this.log('debug', logger, message);

  readonly info = (logger: string, message: string): void => this.log('info', logger, message);

  readonly warning = (logger: string, message: string): void => this.log('warning', logger, message);

  readonly error = (logger: string, message: string): void => this.log('error', logger, message);

  /** A message from a tool: to the client only, when its level passes. Returns whether it passed. */
  forwardFromTool(params: LoggingMessageParams): boolean {
    if (!this.isEnabled(params.level)) return false;
    this.sendToClient?.(params);
    return true;
  }

  /** Stderr only (start-up problems, engine diagnostics), filtered by the start-up level. */
  toStderr(level: LoggingLevel, logger: string, message: string): void {
    if (this.options.quiet && levelRank(level) < levelRank('error')) return;
    if (levelRank(level) < levelRank(this.options.level)) return;
    const time = this.options.timestamps ? `${new Date().toISOString()} ` : '';
    this.options.stderr.write(`${time}mcp-bash: ${level}: ${logger}: ${message}\n`);
  }
}
