import { copyFileSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { forwardHookLog, type HookLogSink, stderrForLog } from '../../runner/hook-log.js';
import { type ProcessRegistry, runProcess } from '../../runner/process-runner.js';
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
  readonly log: HookLogSink;
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
    const controller = new AbortController();
    const timer = setTimeout(() => controller.abort({ kind: 'timeout' }), options.timeoutMs);
    const run = await runProcess({
      command: 'bash',
      args: [options.driver, copy, output],
      cwd: options.projectRoot,
      env: { ...options.env, MCP_LOG_STREAM: logFile },
      signal: controller.signal,
      maxStdoutBytes: options.maxBytes,
      maxStderrBytes: options.maxBytes,
      stderrTailBytes: 2048,
      killGraceMs: 1000,
      registry: options.processes,
    });
    clearTimeout(timer);
    forwardHookLog(logFile, options.log);
    if (run.spawnError) return { ok: false, reason: `cannot run bash: ${run.spawnError.message}` };
    if (run.stopped?.kind === 'timeout')
      return { ok: false, reason: `it ran longer than ${options.timeoutMs / 1000}s` };
    if (run.stdoutOverflow)
      return { ok: false, reason: `it printed more than ${options.maxBytes} bytes (MCPBASH_MANUAL_BUFFER_MAX_BYTES)` };
    if (run.exitCode !== 0) {
      options.log.warning(
        'mcp.registry',
        `server.d/register.sh exited with status ${String(run.exitCode ?? run.signal)} (${stderrForLog(run.stderrTail)})`,
      );
      return {
        ok: false,
        reason: `it exited with status ${String(run.exitCode ?? run.signal)}${run.stderrTail ? `: ${run.stderrTail.trim().split('\n').pop()}` : ''}`,
      };
    }
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
