import { readFileSync, renameSync, writeFileSync } from 'node:fs';
import type { RawNumber } from '../json/raw-number.js';
import { runProcess, type StopReason } from '../process/process-runner.js';
import { type ScriptCommand, scriptCommand } from '../process/script-command.js';
import type { RootEntry } from '../project/roots.js';
import { ErrorCode } from '../spec/error-codes.js';
import { parseLoggingLevel } from '../spec/logging-levels.js';
import { RpcError } from '../spec/rpc-error.js';
import type { CallToolResult, JsonObject, ProgressToken } from '../spec/types.js';
import { type CallPaths, removeCallDirectory } from './call-directory.js';
import { readEmbeddedResources } from './embedded-resources.js';
import { SlidingWindowLimiter } from './rate-limiter.js';
import { SideChannel } from './side-channel.js';
import type { PreparedToolCall } from './tool-call-checks.js';
import { buildToolEnvironment } from './tool-environment.js';
import { buildToolResult, type TimeoutPolicy, type TimeoutReason } from './tool-result.js';
import type { ClientRequestBridge, ToolPaths, ToolRuntime } from './tool-runtime.js';
import { finishTrace, startTrace, type ToolTrace } from './tool-trace.js';

export interface ToolCallOptions {
  /** The request's `_meta` (tools see it as MCP_TOOL_META_JSON). */
  readonly meta: JsonObject;
  /** A RawNumber is a token beyond 2^53, sent back exactly as the client wrote it. */
  readonly progressToken: ProgressToken | RawNumber | undefined;
  /** Aborted when the client cancels (or the session ends). */
  readonly signal: AbortSignal;
  /** `params.timeoutSecs` of the request, or run-tool --timeout. */
  readonly timeoutSecs?: number;
  /** Sends a notification tied to this request (progress, log). */
  readonly notify: (method: string, params: object) => void;
  /** This call's bridge to the client for elicitation; none: the client cannot be asked (run-tool). */
  readonly elicitation?: ClientRequestBridge;
  /** This call's bridge to the client's model (sampling); none: it cannot be asked. */
  readonly sampling?: ClientRequestBridge;
  /** Told when the call runs out of time (run-tool's exit status depends on it). */
  readonly onTimedOut?: (reason: TimeoutReason) => void;
}

/** The effective timeout (decisions D3/D4): request, tool metadata, then the server default. */
export function timeoutPolicy(
  prepared: PreparedToolCall,
  runtime: Pick<ToolPaths, 'config'>,
  override?: number,
): TimeoutPolicy | undefined {
  const { tool } = prepared;
  const seconds = override ?? tool.timeoutSecs ?? runtime.config.defaultToolTimeoutSecs;
  if (!seconds || seconds <= 0) return undefined;
  return {
    timeoutSecs: seconds,
    progressExtendsTimeout: tool.progressExtendsTimeout === true || runtime.config.progressExtendsTimeout,
    maxTimeoutSecs: tool.maxTimeoutSecs ?? runtime.config.maxTimeoutSecs,
  };
}

function readOptional(path: string): string | undefined {
  try {
    return readFileSync(path, 'utf8');
  } catch {
    return undefined;
  }
}

type ClientAnswer = { action: string; content: unknown };

/** Writes the answer to a request for the client atomically, where the SDK polls for it. */
function writeAnswer(file: string, answer: ClientAnswer): void {
  const temp = `${file}.tmp`;
  writeFileSync(temp, JSON.stringify(answer));
  renameSync(temp, file);
}

/** A sampling answer's text, when the model answered with text, written before the answer itself. */
function writeSampleText(paths: CallPaths, answer: ClientAnswer): void {
  const block = (answer.content as { content?: unknown } | null)?.content;
  const { type, text } = (block ?? {}) as { type?: unknown; text?: unknown };
  if (answer.action === 'accept' && type === 'text' && typeof text === 'string') writeFileSync(paths.sampleText, text);
}

/**
 * Asks the client through `bridge` (which declines what the client does not take; no bridge
 * declines everything) and writes the answer to `file`. A bridge that rejects with an
 * RpcError fails the whole call (`failCall`); the tool reads `cancel`.
 */
function answerRequest(
  bridge: ClientRequestBridge | undefined,
  request: unknown,
  file: string,
  signal: AbortSignal,
  failCall: (error: RpcError) => void,
  before?: (answer: ClientAnswer) => void,
) {
  const answer = bridge
    ? bridge.ask(request, signal).catch((error: unknown): ClientAnswer => {
        if (error instanceof RpcError) failCall(error);
        return { action: error instanceof RpcError ? 'cancel' : 'error', content: null };
      })
    : Promise.resolve({ action: 'decline', content: null });
  void answer
    .then((result) => {
      before?.(result);
      writeAnswer(file, result);
    })
    .catch(() => {});
}

interface Forwarders {
  progress(line: Record<string, unknown>): void;
  log(line: Record<string, unknown>): void;
  rejected(stream: 'progress' | 'log', reason: string): void;
}

/**
 * Turns side-channel lines into notifications, with the per-request rate limits. Lines that
 * cannot be used are reported once per call: a tool printing garbage must not flood stderr.
 */
function forwarders(
  call: ToolCallOptions,
  runtime: Pick<ToolRuntime, 'config' | 'log'>,
  toolName: string,
): Forwarders & { sawProgress: () => boolean } {
  const progressLimit = new SlidingWindowLimiter(runtime.config.maxProgressPerMinute);
  const logLimit = new SlidingWindowLimiter(runtime.config.maxLogsPerMinute);
  let progressSeen = false;
  let lastProgress: number | undefined;
  let rejectionNoted = false;
  const dropped = new Set<string>();
  const noteDrop = (what: string, variable: string) => {
    if (dropped.has(what)) return;
    dropped.add(what);
    runtime.log.warning('mcp.tools', `${toolName}: ${what} notifications above ${variable} per minute are dropped`);
  };
  return {
    sawProgress: () => progressSeen,
    progress(line) {
      progressSeen = true;
      if (call.progressToken === undefined) return;
      const progress = typeof line.progress === 'string' ? Number(line.progress) : line.progress;
      if (typeof progress !== 'number' || !Number.isFinite(progress)) return;
      // MCP: "the progress value MUST increase with each notification". One that does not is
      // not sent (it was still activity for progressExtendsTimeout, D267).
      if (lastProgress !== undefined && progress <= lastProgress) return;
      if (!progressLimit.tryTake()) {
        noteDrop('progress', 'MCPBASH_MAX_PROGRESS_PER_MIN');
        return;
      }
      lastProgress = progress;
      const params: Record<string, unknown> = { progressToken: call.progressToken, progress };
      if (typeof line.total === 'number' && Number.isFinite(line.total)) params.total = line.total;
      if (typeof line.message === 'string' && line.message !== '') params.message = line.message;
      call.notify('notifications/progress', params);
    },
    rejected(stream, reason) {
      if (rejectionNoted) return;
      rejectionNoted = true;
      runtime.log.warning(
        'mcp.tools',
        `${toolName}: ${stream} line dropped: ${reason} (further unusable lines of this call are dropped ` +
          `without a note)`,
      );
    },
    log(line) {
      // An unknown level is logged at info rather than lost (docs/TOOL-CONTRACT.md).
      const level = parseLoggingLevel(line.level === 'warn' ? 'warning' : line.level) ?? 'info';
      if (!runtime.log.isEnabled(level)) return;
      if (!logLimit.tryTake()) {
        noteDrop('log', 'MCPBASH_MAX_LOGS_PER_MIN');
        return;
      }
      const params: Record<string, unknown> = { level, data: line.data ?? null };
      if (typeof line.logger === 'string' && line.logger !== '') params.logger = line.logger;
      call.notify('notifications/message', params);
    },
  };
}

/** How the tool starts: its environment (§3.3), its command line, and its trace when traced. */
function toolLaunch(
  prepared: PreparedToolCall,
  call: ToolCallOptions,
  runtime: ToolRuntime,
  key: string,
  paths: CallPaths,
  roots: readonly RootEntry[],
  jqService: string | undefined,
): { env: NodeJS.ProcessEnv; command: ScriptCommand; trace: ToolTrace | undefined } {
  const { tool } = prepared;
  const env = buildToolEnvironment({
    serverEnv: runtime.env,
    mode: prepared.envMode,
    allowlist: runtime.config.tools.envAllowlist,
    layout: runtime.layout,
    home: runtime.home,
    identity: runtime.identity,
    stateDir: runtime.stateDir,
    jsonTool: runtime.jsonTool,
    jqService,
    minimalMode: runtime.config.forceMinimal,
    toolName: tool.name,
    toolPath: prepared.scriptPath,
    metadata: tool,
    args: prepared.args,
    meta: call.meta,
    progressToken: call.progressToken,
    paths,
    roots,
    elicitationSupported: call.elicitation?.supported === true,
    urlElicitation: call.elicitation?.urlElicitation,
    samplingSupported: call.sampling?.supported === true,
    clientSupportsUi: runtime.client.clientSupportsUi(),
    payloadThreshold: runtime.config.envPayloadThreshold,
    workerKey: key,
    logLevel: runtime.log.level,
    version: runtime.version,
  });
  const trace = startTrace(prepared, runtime, key, env);
  if (trace) Object.assign(env, trace.env);
  const command = trace ? { command: trace.command, args: trace.args } : scriptCommand(prepared.scriptPath);
  return { env, command, trace };
}

/**
 * Runs a prepared tool call: a private call directory, the tool's environment, its own
 * process group, a timeout watchdog, live progress/log forwarding, cancellation (cancel
 * marker first, then TERM/KILL), and finally the result (tool-result.ts).
 */
export async function executeToolCall(
  prepared: PreparedToolCall,
  call: ToolCallOptions,
  runtime: ToolRuntime,
): Promise<CallToolResult> {
  const { tool } = prepared;
  const key = runtime.nextCallKey();
  const paths = runtime.callDirectories.create();
  try {
    const roots = await runtime.client.roots();
    const jqService = runtime.jsonTool.builtin ? await runtime.jqService() : undefined;
    const { env, command, trace } = toolLaunch(prepared, call, runtime, key, paths, roots, jqService);
    const stop = new AbortController();
    let timedOut: TimeoutReason | undefined;
    const policy = timeoutPolicy(prepared, runtime, call.timeoutSecs);
    const watchdog = policy
      ? new TimeoutWatchdog(policy, (reason) => {
          timedOut = reason;
          call.onTimedOut?.(reason);
          stop.abort({ kind: 'timeout', detail: reason } satisfies StopReason);
        })
      : undefined;
    // The error the whole call fails with, when a request of the tool's demands it (D296).
    let callError: RpcError | undefined;
    const onCancel = () => {
      // The marker comes first, so a tool trapping TERM sees mcp_is_cancelled true (D25);
      // the tool is stopped even when the marker cannot be written.
      try {
        writeFileSync(paths.cancel, '');
      } catch (error) {
        runtime.log.warning('mcp.tools', `could not write the cancellation marker: ${(error as Error).message}`);
      }
      stop.abort({ kind: 'cancelled' } satisfies StopReason);
    };
    if (call.signal.aborted) onCancel();
    else call.signal.addEventListener('abort', onCancel, { once: true });
    const failCall = (error: RpcError) => {
      callError ??= error;
      onCancel();
    };

    const forward = forwarders(call, runtime, tool.name);
    // Made by the first request of the tool to its client: most calls make none, and an
    // abort() creates an error with its stack.
    let requests: AbortController | undefined;
    const requestsSignal = () => {
      requests ??= new AbortController();
      return requests.signal;
    };
    const channel = new SideChannel(
      paths,
      {
        progress: forward.progress,
        log: forward.log,
        activity: () => watchdog?.touch(),
        rejected: forward.rejected,
        elicitation: (request) =>
          answerRequest(call.elicitation, request, paths.elicitResponse, requestsSignal(), failCall),
        sampling: (request) =>
          answerRequest(call.sampling, request, paths.sampleResponse, requestsSignal(), failCall, (answer) =>
            writeSampleText(paths, answer),
          ),
      },
      runtime.config.liveProgress,
    );
    channel.start();
    const run = await runProcess({
      command: command.command,
      args: command.args,
      cwd: runtime.layout.root,
      env,
      signal: stop.signal,
      maxStdoutBytes: runtime.config.maxToolOutputBytes,
      maxStderrBytes: runtime.config.maxToolStderrBytes,
      stderrTailBytes: runtime.config.stderrTailBytes,
      killGraceMs: runtime.config.killGraceMs,
      registry: runtime.processes,
      ...(runtime.onToolStderr ? { onStderr: runtime.onToolStderr } : {}),
    });
    watchdog?.stop();
    // A cancelled call has no result to speak of; a stopped one cuts its pipes on purpose.
    if (run.pipesHeldOpen && !run.isCanceled && !run.timedOut) {
      runtime.log.warning(
        'mcp.tools',
        `${tool.name}: a background process that left its process group (a setsid daemon?) still held its ` +
          'stdout or stderr open when the tool had exited; the result has what was written until then, not ' +
          'what that process writes later',
      );
    }
    requests?.abort();
    call.signal.removeEventListener('abort', onCancel);
    channel.stop();
    // Before anything can throw: a kept trace is always trimmed and redacted.
    const traceLine = trace ? finishTrace(trace, runtime.config.trace.maxBytes) : undefined;
    if (callError) throw callError;
    if (call.signal.aborted) throw new RpcError(ErrorCode.ToolCancelled, 'Tool cancelled');
    if (timedOut === 'fixed' && forward.sawProgress()) {
      runtime.log.warning(
        'mcp.tools',
        `${tool.name} reported progress but timed out after ${policy?.timeoutSecs}s; set ` +
          `"progressExtendsTimeout": true in its metadata to let progress extend the timeout`,
      );
    }
    const embedded = readEmbeddedResources({
      file: paths.resources,
      roots: await runtime.client.attachmentRoots(),
      cwd: runtime.layout.root,
      callDir: paths.files,
      maxBytes: runtime.config.maxResourceBytes,
      warn: (message) => runtime.log.warning('mcp.tools', `${tool.name}: ${message}`),
    });
    return buildToolResult({
      tool,
      run,
      errorFileText: readOptional(paths.error),
      timedOut: timedOut && policy ? { reason: timedOut, policy } : undefined,
      maxStdoutBytes: runtime.config.maxToolOutputBytes,
      maxStderrBytes: runtime.config.maxToolStderrBytes,
      stderrCapture: runtime.config.stderrCapture,
      embedded,
      validator: runtime.validator,
      ...(traceLine === undefined ? {} : { traceLine }),
      warn: (message) => runtime.log.warning('mcp.tools', message),
    });
  } finally {
    if (!runtime.config.preserveState) removeCallDirectory(paths);
  }
}

/**
 * Fixed mode expires `timeoutSecs` after the start. Idle mode expires `timeoutSecs` after
 * the last activity, and in any case `maxTimeoutSecs` after the start.
 */
class TimeoutWatchdog {
  private idleTimer: NodeJS.Timeout | undefined;
  private capTimer: NodeJS.Timeout | undefined;
  private expired = false;

  constructor(
    private readonly policy: TimeoutPolicy,
    private readonly onExpire: (reason: TimeoutReason) => void,
  ) {
    if (policy.progressExtendsTimeout) {
      this.capTimer = setTimeout(() => this.expire('max_exceeded'), policy.maxTimeoutSecs * 1000);
      this.armIdle();
    } else {
      this.idleTimer = setTimeout(() => this.expire('fixed'), policy.timeoutSecs * 1000);
    }
  }

  /** Progress activity: restarts the idle timeout (no effect in fixed mode). */
  touch(): void {
    if (this.policy.progressExtendsTimeout && !this.expired) this.armIdle();
  }

  stop(): void {
    clearTimeout(this.idleTimer);
    clearTimeout(this.capTimer);
  }

  private armIdle(): void {
    clearTimeout(this.idleTimer);
    this.idleTimer = setTimeout(() => this.expire('idle'), this.policy.timeoutSecs * 1000);
  }

  private expire(reason: TimeoutReason): void {
    if (this.expired) return;
    this.expired = true;
    this.stop();
    this.onExpire(reason);
  }
}
