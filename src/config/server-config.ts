import { type Config, loadConfig } from './config.js';
import type { Env } from './env-values.js';
import type { SettingValues } from './settings.js';
import {
  type JsonToolConfig,
  jsonToolConfig,
  type LogConfig,
  logConfig,
  type PathsConfig,
  type ProviderConfig,
  pathsConfig,
  providerConfig,
  type RegistryConfig,
  registryConfig,
  type ToolsConfig,
  toolsConfig,
} from './slices.js';

/**
 * The server's (and a tool call's) settings, parsed once at start-up from the
 * configuration table (settings.ts), named for the code that uses them; each part gets its
 * slice (registry, tools, providers, JSON tool, log, paths, remote token).
 */
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
  /** How long to wait for the client's roots/list answer, and after roots/list_changed. */
  readonly rootsRequestTimeoutMs: number;
  readonly rootsDebounceMs: number;
  /** The server's wait for an elicitation answer: the SDK's MCPBASH_ELICITATION_TIMEOUT plus 5 s. */
  readonly elicitationTimeoutMs: number;
  /** The first read of resources/subscribe (MCPBASH_DEFAULT_SUBSCRIBE_TIMEOUT). */
  readonly subscribeTimeoutSecs: number;
  /** How often subscribed resources are re-read; 0: never. */
  readonly resourcesPollIntervalMs: number;
  readonly maxSubscriptions: number;
  /** Completion scripts whose registration sets no timeout (0: none). */
  readonly completionTimeoutSecs: number;
  /** MCPBASH_DEBUG_PAYLOADS: every message logged to the state dir. */
  readonly debugPayloads: boolean;
  /** MCPBASH_TRANSPORT, else MCP_TRANSPORT: only stdio is served. */
  readonly transport: string | undefined;
  readonly remoteToken: RemoteTokenConfig;
  readonly registry: RegistryConfig;
  readonly tools: ToolsConfig;
  readonly providers: ProviderConfig;
  readonly jsonTool: JsonToolConfig;
  readonly log: LogConfig;
  readonly paths: PathsConfig;
}

export interface TraceConfig {
  readonly enabled: boolean;
  /** PS4 of traced tools (MCPBASH_TRACE_PS4). */
  readonly ps4: string;
  /** A kept trace is cut to its last this many bytes (MCPBASH_TRACE_MAX_BYTES). */
  readonly maxBytes: number;
}

/** The remote-token guard's settings (original-behaviour §2.12). */
export interface RemoteTokenConfig {
  /** MCPBASH_REMOTE_TOKEN: the shared secret; undefined (or empty): no guard. */
  readonly token: string | undefined;
  /** Where in `params._meta` the token is looked for first, and the other place it may be. */
  readonly key: string;
  readonly fallbackKey: string;
  /** Failures beyond this per minute are marked throttled. */
  readonly maxFailuresPerMinute: number;
}

function timeouts(values: SettingValues) {
  return {
    shutdownTimeoutMs: values.MCPBASH_SHUTDOWN_TIMEOUT * 1000,
    idleTimeoutMs: values.MCPBASH_IDLE_TIMEOUT_ENABLED ? values.MCPBASH_IDLE_TIMEOUT * 1000 : 0,
    orphanCheckIntervalMs: values.MCPBASH_ORPHAN_CHECK_ENABLED ? values.MCPBASH_ORPHAN_CHECK_INTERVAL * 1000 : 0,
    killGraceMs: values.MCPBASH_KILL_GRACE_SECS * 1000,
    defaultToolTimeoutSecs: values.MCPBASH_DEFAULT_TOOL_TIMEOUT,
    maxTimeoutSecs: values.MCPBASH_MAX_TIMEOUT_SECS,
    progressExtendsTimeout: values.MCPBASH_PROGRESS_EXTENDS_TIMEOUT,
    rootsRequestTimeoutMs: values.MCPBASH_ROOTS_REQUEST_TIMEOUT * 1000,
    rootsDebounceMs: values.MCPBASH_ROOTS_DEBOUNCE_INTERVAL * 1000,
    elicitationTimeoutMs: (values.MCPBASH_ELICITATION_TIMEOUT + 5) * 1000,
    subscribeTimeoutSecs: values.MCPBASH_DEFAULT_SUBSCRIBE_TIMEOUT,
    resourcesPollIntervalMs: values.MCPBASH_RESOURCES_POLL_INTERVAL_SECS * 1000,
    completionTimeoutSecs: values.MCPBASH_COMPLETION_TIMEOUT_SECS,
  };
}

function limits(values: SettingValues) {
  return {
    maxConcurrentRequests: values.MCPBASH_MAX_CONCURRENT_REQUESTS,
    maxMessageBytes: values.MCPBASH_MAX_MESSAGE_BYTES,
    maxToolOutputBytes: values.MCPBASH_MAX_TOOL_OUTPUT_SIZE,
    registryMaxBytes: values.MCPBASH_REGISTRY_MAX_BYTES,
    maxToolStderrBytes: values.MCPBASH_MAX_TOOL_STDERR_SIZE,
    maxResourceBytes: values.MCPBASH_MAX_RESOURCE_BYTES,
    maxUiResourceBytes: values.MCPBASH_MAX_UI_RESOURCE_BYTES,
    stderrTailBytes: values.MCPBASH_TOOL_STDERR_TAIL_LIMIT,
    maxProgressPerMinute: values.MCPBASH_MAX_PROGRESS_PER_MIN,
    maxLogsPerMinute: values.MCPBASH_MAX_LOGS_PER_MIN,
    envPayloadThreshold: values.MCPBASH_ENV_PAYLOAD_THRESHOLD,
    maxSubscriptions: values.MCPBASH_MAX_SUBSCRIPTIONS,
  };
}

/** The remote-token slice. */
export function remoteTokenConfig(values: SettingValues): RemoteTokenConfig {
  return {
    token: values.MCPBASH_REMOTE_TOKEN,
    key: values.MCPBASH_REMOTE_TOKEN_KEY,
    fallbackKey: values.MCPBASH_REMOTE_TOKEN_FALLBACK_KEY,
    maxFailuresPerMinute: values.MCPBASH_REMOTE_TOKEN_MAX_FAILURES_PER_MIN,
  };
}

/**
 * Why the server runs in minimal mode (logging only), or undefined when it does not: forced,
 * or no JSON tool wanted (1.x: minimal mode is "no jq/gojq", and `none` names that choice).
 */
export function minimalModeReason(values: SettingValues): string | undefined {
  if (values.MCPBASH_FORCE_MINIMAL) return 'MCPBASH_FORCE_MINIMAL is set';
  if (values.MCPBASH_JSON_TOOL === 'none') return 'MCPBASH_JSON_TOOL is none';
  return undefined;
}

/** The server's settings out of the parsed configuration. */
export function serverConfig(config: Config): ServerConfig {
  const { values } = config;
  return {
    ...limits(values),
    ...timeouts(values),
    stderrCapture: values.MCPBASH_TOOL_STDERR_CAPTURE,
    streamToolStderr: values.MCPBASH_TOOL_STREAM_STDERR,
    liveProgress: values.MCPBASH_ENABLE_LIVE_PROGRESS,
    compatBatches: values.MCPBASH_COMPAT_BATCHES,
    forceMinimal: minimalModeReason(values) !== undefined,
    preserveState: values.MCPBASH_PRESERVE_STATE,
    trace: {
      enabled: values.MCPBASH_TRACE_TOOLS,
      ps4: values.MCPBASH_TRACE_PS4,
      maxBytes: values.MCPBASH_TRACE_MAX_BYTES,
    },
    debugPayloads: values.MCPBASH_DEBUG_PAYLOADS,
    transport: values.MCPBASH_TRANSPORT ?? values.MCP_TRANSPORT,
    remoteToken: remoteTokenConfig(values),
    registry: registryConfig(values),
    tools: toolsConfig(values),
    providers: providerConfig(values),
    jsonTool: jsonToolConfig(values),
    log: logConfig(values),
    paths: pathsConfig(values),
  };
}

/** Parses `env` and returns the server's settings (the problems are the caller's to report: loadConfig). */
export function loadServerConfig(env: Env): ServerConfig {
  return serverConfig(loadConfig(env));
}
