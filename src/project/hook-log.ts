import { readFileSync } from 'node:fs';
import { isObject } from '../json/objects.js';
import type { LogSink } from '../spec/logging-levels.js';

function forward(log: LogSink, level: unknown, logger: string, message: string): void {
  if (level === 'debug') log.debug(logger, message);
  else if (level === 'info' || level === 'notice') log.info(logger, message);
  else log.warning(logger, message);
}

/**
 * Forwards what a hook logged with mcp_logging_* (notifications/message lines in its
 * MCP_LOG_STREAM file) to the server log: debug stays debug, info and notice are info,
 * warning and above are warnings. Lines that are not such records are skipped.
 */
export function forwardHookLog(file: string, log: LogSink): void {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch {
    return;
  }
  for (const line of text.split('\n')) {
    if (line.trim() === '') continue;
    let record: unknown;
    try {
      record = JSON.parse(line);
    } catch {
      continue;
    }
    const params = isObject(record) && isObject(record.params) ? record.params : undefined;
    if (!params) continue;
    const logger = typeof params.logger === 'string' && params.logger !== '' ? params.logger : 'mcp-bash';
    const message = typeof params.data === 'string' ? params.data : JSON.stringify(params.data);
    forward(log, params.level, logger, message);
  }
}

/** A hook's stderr for a log line: its last lines, trimmed, or a note that it said nothing. */
export function stderrForLog(stderrTail: string): string {
  const text = stderrTail.trim();
  return text === '' ? 'no stderr' : `stderr: ${text}`;
}
