import { closeSync, fstatSync, mkdirSync, openSync, readSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { bashScriptCommand, type ScriptCommand } from '../process/script-command.js';
import type { PreparedToolCall } from './tool-call-checks.js';
import type { ToolRuntime } from './tool-runtime.js';
import { redactTrace } from './trace-redaction.js';

/** One traced tool call (MCPBASH_TRACE_TOOLS=true). */
export interface ToolTrace extends ScriptCommand {
  /** The kept trace: `<state dir>/traces/<tool>.<call key>.log`, mode 0600. */
  readonly file: string;
  /** Added to the tool's environment: the BASH_ENV hook that turns xtrace on, and its inputs. */
  readonly env: Record<string, string>;
}

/** Longest trace line copied into a result. */
const TRACE_LINE_CHARS = 512;

/**
 * Prepares xtrace for a Bash tool: the tool runs as `bash <script>` with BASH_ENV pointing
 * at the hook, which sets PS4 and BASH_XTRACEFD and turns xtrace on before the first line
 * (like `bash -x`, but PS4 also works as root). Undefined when tracing is off or the tool
 * is not a Bash script.
 */
export function startTrace(
  prepared: PreparedToolCall,
  runtime: Pick<ToolRuntime, 'config' | 'stateDir' | 'home'>,
  callKey: string,
  toolEnv: NodeJS.ProcessEnv,
): ToolTrace | undefined {
  const { trace } = runtime.config;
  if (!trace.enabled) return undefined;
  const command = bashScriptCommand(prepared.scriptPath);
  if (!command) return undefined;
  const dir = join(runtime.stateDir, 'traces');
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  const file = join(dir, `${prepared.tool.name.replace(/[^A-Za-z0-9._-]/g, '_')}.${callKey}.log`);
  closeSync(openSync(file, 'w', 0o600));
  const env: Record<string, string> = {
    BASH_ENV: join(runtime.home.hooksDir, 'trace-tool.sh'),
    MCPBASH_TRACE_FILE: file,
    MCPBASH_TRACE_PS4: trace.ps4,
    // Always set: a value in the server's own environment must not reach the hook.
    MCPBASH_TRACE_BASH_ENV: toolEnv.BASH_ENV ?? '',
  };
  return { ...command, file, env };
}

/** The last `maxBytes` of a file, starting at a whole line when cut. */
function readTail(file: string, maxBytes: number): string {
  const fd = openSync(file, 'r');
  try {
    const size = fstatSync(fd).size;
    const start = Math.max(0, size - maxBytes);
    const buffer = Buffer.alloc(size - start);
    const read = readSync(fd, buffer, 0, buffer.length, start);
    return cutToLines(buffer.subarray(0, read).toString('utf8'), start > 0);
  } finally {
    closeSync(fd);
  }
}

/** Drops a partial first line: half a line could be half a secret without its name. */
function cutToLines(text: string, cut: boolean): string {
  if (!cut) return text;
  const newline = text.indexOf('\n');
  return newline === -1 ? '' : text.slice(newline + 1);
}

/**
 * After the call: keeps the last MCPBASH_TRACE_MAX_BYTES of the trace, with the values of
 * secret-looking variables redacted, and returns its last line (for failed results).
 */
export function finishTrace(trace: ToolTrace, maxBytes: number): string | undefined {
  let text: string;
  try {
    text = redactTrace(readTail(trace.file, maxBytes));
    const bytes = Buffer.from(text);
    // Redaction can lengthen a line ("K=x" becomes "K=[REDACTED]").
    if (bytes.length > maxBytes) text = cutToLines(bytes.subarray(bytes.length - maxBytes).toString('utf8'), true);
    const temp = `${trace.file}.tmp`;
    writeFileSync(temp, text, { mode: 0o600 });
    renameSync(temp, trace.file);
  } catch {
    return undefined;
  }
  const last = text.trimEnd().split('\n').pop() ?? '';
  return last === '' ? undefined : last.slice(0, TRACE_LINE_CHARS);
}
