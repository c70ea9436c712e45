/** MCP's logging levels (RFC 5424 severities), from least to most severe. */
export const LOGGING_LEVELS = [
  'debug',
  'info',
  'notice',
  'warning',
  'error',
  'critical',
  'alert',
  'emergency',
] as const;

export type LoggingLevel = (typeof LOGGING_LEVELS)[number];

/** A level's rank: higher is more severe. */
export function levelRank(level: LoggingLevel): number {
  return LOGGING_LEVELS.indexOf(level);
}

/** A level name in any case, or undefined when it is not one. */
export function parseLoggingLevel(value: unknown): LoggingLevel | undefined {
  if (typeof value !== 'string') return undefined;
  const lower = value.trim().toLowerCase();
  return (LOGGING_LEVELS as readonly string[]).includes(lower) ? (lower as LoggingLevel) : undefined;
}

/**
 * Where a layer's own log lines go (the server log, or a CLI command's stderr), by level and
 * the logger's name. The one sink shape of every layer; where the logger is fixed (the
 * JSON-RPC engine, an HTTP server and its sessions) a LevelLog, which one LogSink method fills.
 */
export interface LogSink {
  debug(logger: string, message: string): void;
  info(logger: string, message: string): void;
  warning(logger: string, message: string): void;
}

/** A log whose logger is fixed by whoever passes it: a level and a message. */
export type LevelLog = (level: LoggingLevel, message: string) => void;
