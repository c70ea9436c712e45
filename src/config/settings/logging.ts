import { LOGGING_LEVELS, type LoggingLevel, parseLoggingLevel } from '../../spec/logging-levels.js';
import type { Parsed } from '../setting.js';
import { bool, custom, inSection } from '../setting-kinds.js';

/** MCPBASH_LOG_LEVEL: a level name, or `true`/`1` (debug) and `false`/`0` (info). */
function parseLevel(raw: string, fallback: LoggingLevel | undefined): Parsed<LoggingLevel | undefined> {
  const word = raw.trim().toLowerCase();
  if (word === 'true' || word === '1') return { value: 'debug' };
  if (word === 'false' || word === '0') return { value: 'info' };
  const level = parseLoggingLevel(word);
  if (level) return { value: level };
  return { value: fallback, problem: `${JSON.stringify(raw)} is not one of ${LOGGING_LEVELS.join(', ')}; ignored` };
}

/** What the server and the CLI say on stderr, and how. */
export const loggingSettings = inSection('Logging and debugging', {
  MCPBASH_LOG_LEVEL: custom<LoggingLevel | undefined>({
    usedBy: ['logging'],
    default: undefined,
    defaultDoc: '`info` (`debug` when `server.d/.debug` exists)',
    doc: "the server's log level; `true`/`1` mean debug, `false`/`0` info",
    parse: parseLevel,
  }),
  MCPBASH_LOG_LEVEL_DEFAULT: custom<LoggingLevel>({
    usedBy: ['logging'],
    default: 'info',
    doc: 'the level when `MCPBASH_LOG_LEVEL` and `.debug` say nothing',
    parse: (raw, fallback) => {
      const level = parseLoggingLevel(raw);
      return level
        ? { value: level }
        : {
            value: fallback,
            problem: `${JSON.stringify(raw)} is not one of ${LOGGING_LEVELS.join(', ')}; using "info"`,
          };
    },
  }),
  MCPBASH_LOG_VERBOSE: bool({
    usedBy: ['logging', 'registry'],
    default: false,
    doc: "log `register.sh`'s output (at info level); paths are not redacted either way (D273)",
  }),
  MCPBASH_LOG_TIMESTAMP: bool({
    usedBy: ['logging'],
    default: false,
    doc: 'prefix stderr log lines with the time',
  }),
  MCPBASH_LOG_STARTUP: bool({
    usedBy: ['project'],
    default: false,
    doc: 'say on stderr where the framework files are (extracted now or before, or `MCPBASH_HOME`)',
  }),
  MCPBASH_QUIET: bool({ usedBy: ['logging'], default: false, doc: 'only errors on stderr' }),
  MCPBASH_DEBUG_PAYLOADS: bool({
    usedBy: ['server'],
    default: false,
    defaultDoc: 'false (true under `mcp-bash debug`)',
    doc: 'log every message to `<state dir>/payload.debug.log`, secrets redacted',
  }),
});
