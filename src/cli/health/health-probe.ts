import { existsSync } from 'node:fs';
import { join } from 'node:path';
import type { Writable } from 'node:stream';
import type { FrameworkHome } from '../../assets/framework-home.js';
import type { Env } from '../../config/env-values.js';
import { minimalModeReason } from '../../config/server-config.js';
import type { SettingValues } from '../../config/settings.js';
import type { JsonToolChoice } from '../../process/json-tool.js';
import { failureMessage, processFailure } from '../../process/process-result.js';
import { runProcess } from '../../process/process-runner.js';
import { hookEnvironment } from '../../project/hook-environment.js';
import type { ProjectContext } from '../../project/project-context.js';
import type { ProjectRegistries } from '../../project/project-registries.js';
import { insecureFileReason } from '../../project/secure-file.js';

/** What `server.d/health-checks.sh` said: absent, passed, failed, or not run because it is not trusted. */
type ProjectChecks = 'none' | 'ok' | 'failed' | 'untrusted';

/**
 * The registries as a probe sees them: each kind's count, or why it failed. `rescan` scans
 * afresh (the command); a running server's probe takes them as its clients get them.
 */
async function probeRegistries(
  registries: ProjectRegistries,
  rescan = true,
): Promise<{ counts: Record<string, number | null>; errors: Record<string, string> }> {
  const counts: Record<string, number | null> = {};
  const errors: Record<string, string> = {};
  for (const store of registries.all()) {
    try {
      counts[store.kind] = (await store.snapshot(rescan)).items.length;
    } catch (error) {
      counts[store.kind] = null;
      errors[store.kind] = (error as Error).message;
    }
  }
  return { counts, errors };
}

/** What running server.d/health-checks.sh needs. */
interface HookRun {
  readonly project: ProjectContext;
  readonly home: FrameworkHome;
  readonly env: Env;
  /** The JSON tool hooks get (1.x's helpers use it). */
  readonly jsonTool: JsonToolChoice;
  readonly stderr: Writable;
  readonly signal: AbortSignal;
}

/** What a health report is made of. */
export interface HealthInput extends HookRun {
  readonly registries: ProjectRegistries;
  /** Scan the registries afresh (see probeRegistries). */
  readonly rescan: boolean;
}

/**
 * The report of `mcp-bash health` (and of a running HTTP server's `/readyz`): healthy when
 * every registry loads and the project's checks pass (or there are none).
 */
export async function healthReport(input: HealthInput): Promise<{ healthy: boolean; report: Record<string, unknown> }> {
  const { counts, errors } = await probeRegistries(input.registries, input.rescan);
  const projectChecks = await runProjectChecks(input);
  const healthy = Object.keys(errors).length === 0 && (projectChecks === 'ok' || projectChecks === 'none');
  const report: Record<string, unknown> = {
    status: healthy ? 'ok' : 'unhealthy',
    mode: 'full',
    jsonTool: input.jsonTool.name,
    ...counts,
    projectChecks,
    ...(Object.keys(errors).length > 0 ? { errors } : {}),
  };
  return { healthy, report };
}

/**
 * Runs `server.d/health-checks.sh` (when present) through the hook driver, with the same
 * trust checks as register.sh and policy.sh: an untrusted file is not run, and the probe
 * reports it (the project meant to check something). Its output goes to stderr.
 */
async function runProjectChecks(run: HookRun): Promise<ProjectChecks> {
  const { layout } = run.project;
  const file = join(layout.serverDir, 'health-checks.sh');
  if (!existsSync(file)) return 'none';
  const insecure = insecureFileReason(file, [layout.serverDir, layout.root]);
  if (insecure) {
    run.stderr.write(`mcp-bash health: not running server.d/health-checks.sh: ${insecure}\n`);
    return 'untrusted';
  }
  const result = await runProcess({
    command: 'bash',
    args: [join(run.home.hooksDir, 'health-checks.sh'), run.home.sdkDir, file],
    cwd: layout.root,
    env: hookEnvironment(run.env, layout, run.home, run.jsonTool),
    signal: run.signal,
    maxStdoutBytes: 1024 * 1024,
    maxStderrBytes: 1024 * 1024,
    stderrTailBytes: 1024,
    killGraceMs: 500,
    onStderr: (chunk) => run.stderr.write(chunk),
  });
  const failure = processFailure(result);
  if (!failure) return 'ok';
  // Failed checks print their own ✗ lines (status 1); say how the script itself ended.
  if (failure.kind !== 'exit' || failure.status !== 1)
    run.stderr.write(`mcp-bash health: ${failureMessage(failure, { subject: 'server.d/health-checks.sh' })}\n`);
  return 'failed';
}

/** `--timeout` in whole seconds above 0 (as MCPBASH_HEALTH_TIMEOUT_SECS), else undefined. */
export function healthTimeoutOption(value: string): number | undefined {
  return /^\d+$/.test(value) && Number(value) > 0 ? Number(value) : undefined;
}

/**
 * Runs `check` with a deadline: its result, or 'timeout' once `seconds` have passed, when the
 * signal it was given is aborted (`{kind: 'timeout'}`) so that what it started stops too.
 */
export async function withHealthDeadline<T>(
  seconds: number,
  check: (signal: AbortSignal) => Promise<T>,
): Promise<T | 'timeout'> {
  const controller = new AbortController();
  let timer: NodeJS.Timeout | undefined;
  const timedOut = new Promise<'timeout'>((resolve) => {
    timer = setTimeout(() => {
      controller.abort({ kind: 'timeout' });
      resolve('timeout');
    }, seconds * 1000);
  });
  try {
    return await Promise.race([check(controller.signal), timedOut]);
  } finally {
    clearTimeout(timer);
  }
}

/**
 * The misconfiguration report of a server in minimal mode (MCPBASH_FORCE_MINIMAL, or
 * MCPBASH_JSON_TOOL=none), naming the setting that forced it: `health` and `/readyz` say the
 * same. Undefined in full mode.
 */
export function minimalModeReport(values: SettingValues): Record<string, unknown> | undefined {
  const reason = minimalModeReason(values);
  if (!reason) return undefined;
  // 1.x's reason for minimal mode; with the built-in jq (D6) only a forced minimal mode gets here.
  return {
    status: 'error',
    reason: 'json_tool_missing',
    message: `${reason}: the server offers no tools, resources or prompts`,
  };
}
