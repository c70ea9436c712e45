import { type Env, envBool, envInt, envNumber, envString } from './env-values.js';

/** The server's tunables, read once from the environment at start-up (names are 1.x's). */
export interface ServerConfig {
  /** Requests that start processes running at once (MCPBASH_MAX_CONCURRENT_REQUESTS). */
  readonly maxConcurrentRequests: number;
  /** Longest accepted input line (MCPBASH_MAX_MESSAGE_BYTES, new in 2.x). */
  readonly maxMessageBytes: number;
  /** Tool stdout cap and the size cap of any response but lists (MCPBASH_MAX_TOOL_OUTPUT_SIZE). */
  readonly maxToolOutputBytes: number;
  /** The size cap of a registry, and so of a list response (MCPBASH_REGISTRY_MAX_BYTES). */
  readonly registryMaxBytes: number;
  readonly maxToolStderrBytes: number;
  /** Resource payloads and tool attachments (MCPBASH_MAX_RESOURCE_BYTES, default the output cap). */
  readonly maxResourceBytes: number;
  /** MCP Apps UI resources (MCPBASH_MAX_UI_RESOURCE_BYTES, 1.x's 1 MiB). */
  readonly maxUiResourceBytes: number;
  readonly stderrTailBytes: number;
  readonly stderrCapture: boolean;
  readonly streamToolStderr: boolean;
  readonly maxProgressPerMinute: number;
  readonly maxLogsPerMinute: number;
  /** Live progress and log forwarding (decision D5: on by default). */
  readonly liveProgress: boolean;
  readonly compatBatches: boolean;
  readonly forceMinimal: boolean;
  /** After `shutdown` or end of input: how long in-flight work may still finish. */
  readonly shutdownTimeoutMs: number;
  /** No input and no work for this long ends the server; 0 disables. */
  readonly idleTimeoutMs: number;
  readonly orphanCheckIntervalMs: number;
  /** Between TERM and KILL when stopping a process group. */
  readonly killGraceMs: number;
  /** Default tools/call timeout (decision D4). */
  readonly defaultToolTimeoutSecs: number;
  readonly maxTimeoutSecs: number;
  readonly progressExtendsTimeout: boolean;
  readonly envPayloadThreshold: number;
  readonly preserveState: boolean;
  /** MCPBASH_TRACE_TOOLS: Bash tools run under xtrace (see tool-trace.ts). */
  readonly trace: TraceConfig;
}

export interface TraceConfig {
  readonly enabled: boolean;
  /** PS4 of traced tools (MCPBASH_TRACE_PS4). */
  readonly ps4: string;
  /** A kept trace is cut to its last this many bytes (MCPBASH_TRACE_MAX_BYTES). */
  readonly maxBytes: number;
}

/** 1.x's default PS4: the script's file name and line. */
export const DEFAULT_TRACE_PS4 = '+ ${BASH_SOURCE[0]##*/}:${LINENO}: ';

const MIB = 1024 * 1024;

export function loadServerConfig(env: Env): ServerConfig {
  const maxToolOutputBytes = envInt(env, 'MCPBASH_MAX_TOOL_OUTPUT_SIZE', 10 * MIB, { min: 1 });
  const maxProgressPerMinute = envInt(env, 'MCPBASH_MAX_PROGRESS_PER_MIN', 100, { min: 0 });
  const idleEnabled = envBool(env, 'MCPBASH_IDLE_TIMEOUT_ENABLED', true);
  const orphanCheck = envBool(
    env,
    'MCPBASH_ORPHAN_CHECK_ENABLED',
    process.platform !== 'win32' && !envBool(env, 'MCPBASH_CI_MODE', false),
  );
  return {
    maxConcurrentRequests: envInt(env, 'MCPBASH_MAX_CONCURRENT_REQUESTS', 16, { min: 1 }),
    maxMessageBytes: envInt(env, 'MCPBASH_MAX_MESSAGE_BYTES', 32 * MIB, { min: 1024 }),
    maxToolOutputBytes,
    registryMaxBytes: envInt(env, 'MCPBASH_REGISTRY_MAX_BYTES', 100 * MIB, { min: 1 }),
    maxToolStderrBytes: envInt(env, 'MCPBASH_MAX_TOOL_STDERR_SIZE', maxToolOutputBytes, { min: 1 }),
    maxResourceBytes: envInt(env, 'MCPBASH_MAX_RESOURCE_BYTES', maxToolOutputBytes, { min: 1 }),
    maxUiResourceBytes: envInt(env, 'MCPBASH_MAX_UI_RESOURCE_BYTES', MIB, { min: 1 }),
    stderrTailBytes: envInt(env, 'MCPBASH_TOOL_STDERR_TAIL_LIMIT', 4096, { min: 0 }),
    stderrCapture: envBool(env, 'MCPBASH_TOOL_STDERR_CAPTURE', true),
    streamToolStderr: envBool(env, 'MCPBASH_TOOL_STREAM_STDERR', false),
    maxProgressPerMinute,
    maxLogsPerMinute: envInt(env, 'MCPBASH_MAX_LOGS_PER_MIN', maxProgressPerMinute, { min: 0 }),
    liveProgress: envBool(env, 'MCPBASH_ENABLE_LIVE_PROGRESS', true),
    compatBatches: envBool(env, 'MCPBASH_COMPAT_BATCHES', false),
    forceMinimal: envBool(env, 'MCPBASH_FORCE_MINIMAL', false),
    shutdownTimeoutMs: envNumber(env, 'MCPBASH_SHUTDOWN_TIMEOUT', 5, { min: 0 }) * 1000,
    idleTimeoutMs: idleEnabled ? envInt(env, 'MCPBASH_IDLE_TIMEOUT', 3600, { min: 0 }) * 1000 : 0,
    orphanCheckIntervalMs: orphanCheck ? envInt(env, 'MCPBASH_ORPHAN_CHECK_INTERVAL', 30, { min: 1 }) * 1000 : 0,
    killGraceMs: envNumber(env, 'MCPBASH_KILL_GRACE_SECS', 1, { min: 0, max: 60 }) * 1000,
    defaultToolTimeoutSecs: envInt(env, 'MCPBASH_DEFAULT_TOOL_TIMEOUT', 30, { min: 0 }),
    maxTimeoutSecs: envInt(env, 'MCPBASH_MAX_TIMEOUT_SECS', 600, { min: 1 }),
    progressExtendsTimeout: envBool(env, 'MCPBASH_PROGRESS_EXTENDS_TIMEOUT', false),
    envPayloadThreshold: envInt(env, 'MCPBASH_ENV_PAYLOAD_THRESHOLD', 65536, { min: 0 }),
    preserveState: envBool(env, 'MCPBASH_PRESERVE_STATE', false),
    trace: {
      enabled: envBool(env, 'MCPBASH_TRACE_TOOLS', false),
      ps4: envString(env, 'MCPBASH_TRACE_PS4') ?? DEFAULT_TRACE_PS4,
      maxBytes: envInt(env, 'MCPBASH_TRACE_MAX_BYTES', MIB, { min: 1 }),
    },
  };
}
