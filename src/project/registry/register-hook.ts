import { copyFileSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import {
  failureMessage,
  type ProcessFailure,
  type ProcessResult,
  processFailure,
} from '../../process/process-result.js';
import { type ProcessRegistry, runProcess } from '../../process/process-runner.js';
import type { LogSink } from '../../spec/logging-levels.js';
import { forwardHookLog, stderrForLog } from '../hook-log.js';
import { MANUAL_KINDS, type ManualKind, type RawRegistrations } from './manual-kinds.js';

export interface RegisterHookOptions {
  readonly script: string;
  readonly driver: string;
  readonly projectRoot: string;
  readonly env: NodeJS.ProcessEnv;
  readonly scratchDir: string;
  /** MCPBASH_MANUAL_BUFFER_MAX_BYTES: registrations and stdout each. */
  readonly maxBytes: number;
  readonly timeoutMs: number;
  /** Where the run is registered, so a server shutting down (or a probe giving up) stops it. */
  readonly processes?: ProcessRegistry;
  /** Receives what the hook logs (mcp_logging_*) and, when it fails, its stderr. */
  readonly log: LogSink;
}

export type HookOutcome =
  | {
      ok: true;
      kinds: RawRegistrations;
      stdout: string;
      /** Registrations that were not JSON, per kind: each is skipped with a warning. */
      skipped: Partial<Record<ManualKind, string[]>>;
    }
  | { ok: false; reason: string };

function parseRecords(
  buffer: Buffer,
  kinds: RawRegistrations,
  skipped: Partial<Record<ManualKind, string[]>>,
): string | undefined {
  for (const record of buffer.toString('utf8').split('\0')) {
    if (record === '') continue;
    const tab = record.indexOf('\t');
    const kind = record.slice(0, tab) as ManualKind;
    const payload = record.slice(tab + 1);
    if (!MANUAL_KINDS.includes(kind)) return `unknown registration kind "${kind}"`;
    kinds[kind] ??= [];
    const list = kinds[kind] as unknown[];
    if (payload === '__begin__') continue;
    try {
      list.push(JSON.parse(payload));
    } catch {
      // One broken registration costs only itself.
      skipped[kind] = [...(skipped[kind] ?? []), `a registration is not valid JSON (${payload.slice(0, 200)})`];
    }
  }
  return undefined;
}

function mergeStdoutObject(stdout: string, kinds: RawRegistrations): string | undefined {
  const text = stdout.trim();
  if (!text.startsWith('{')) return undefined;
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return undefined;
  }
  for (const kind of MANUAL_KINDS) {
    const entries = (value as Record<string, unknown>)[kind];
    if (entries === undefined || entries === null) continue;
    if (!Array.isArray(entries)) return `"${kind}" in the printed JSON must be an array`;
    kinds[kind] = [...((kinds[kind] as unknown[] | undefined) ?? []), ...entries];
  }
  return undefined;
}

/**
 * Why the hook's run failed, as the end of "server.d/register.sh is invalid: ...": "it
 * timed out after 10s", "it exited with status 4: <its last stderr line>". A non-zero exit
 * is also logged with its stderr.
 */
function hookFailure(failure: ProcessFailure, run: ProcessResult, options: RegisterHookOptions): string {
  const said = (subject: string) =>
    failureMessage(failure, {
      subject,
      timeoutSecs: options.timeoutMs / 1000,
      limits: { stdout: options.maxBytes, stderr: options.maxBytes, setting: 'MCPBASH_MANUAL_BUFFER_MAX_BYTES' },
    });
  if (failure.kind !== 'exit') return said('it');
  options.log.warning('mcp.registry', `${said('server.d/register.sh')} (${stderrForLog(run.stderrTail)})`);
  const lastLine = run.stderrTail.trim().split('\n').pop();
  return lastLine ? `${said('it')}: ${lastLine}` : said('it');
}

/**
 * Runs `server.d/register.sh` (already judged safe and allowed) through the hook driver.
 * It runs a private copy, so the file cannot change between the checks and the run.
 */
export async function runRegisterHook(options: RegisterHookOptions): Promise<HookOutcome> {
  const work = mkdtempSync(join(options.scratchDir, 'register-'));
  try {
    const copy = join(work, 'register.sh');
    const output = join(work, 'registrations');
    const logFile = join(work, 'log');
    copyFileSync(options.script, copy);
    writeFileSync(output, '');
    const run = await runProcess({
      command: 'bash',
      args: [options.driver, copy, output],
      cwd: options.projectRoot,
      env: { ...options.env, MCP_LOG_STREAM: logFile },
      timeoutMs: options.timeoutMs,
      maxStdoutBytes: options.maxBytes,
      maxStderrBytes: options.maxBytes,
      stderrTailBytes: 2048,
      killGraceMs: 1000,
      registry: options.processes,
    });
    forwardHookLog(logFile, options.log);
    const failure = processFailure(run);
    if (failure) return { ok: false, reason: hookFailure(failure, run, options) };
    const records = readFileSync(output);
    if (records.length > options.maxBytes)
      return {
        ok: false,
        reason: `its registrations exceed ${options.maxBytes} bytes (MCPBASH_MANUAL_BUFFER_MAX_BYTES)`,
      };
    const kinds: RawRegistrations = {};
    const skipped: Partial<Record<ManualKind, string[]>> = {};
    const stdout = run.stdout.toString('utf8');
    const problem = parseRecords(records, kinds, skipped) ?? mergeStdoutObject(stdout, kinds);
    return problem ? { ok: false, reason: problem } : { ok: true, kinds, stdout, skipped };
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}
