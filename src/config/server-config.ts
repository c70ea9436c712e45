import { type Config, loadConfig } from './config.js';
import type { Env } from './env-values.js';
import type { SettingValues } from './settings.js';
import { jsonToolConfig, logConfig, pathsConfig, providerConfig, registryConfig, toolsConfig } from './slices.js';

/**
 * The server's (and a tool call's) settings, parsed once at start-up from the
 * configuration table (settings.ts), named for the code that uses them; each part gets its
 * slice (registry, tools, providers, JSON tool, log, paths, remote token).
 */
export type ServerConfig = Readonly<ReturnType<typeof serverConfig>>;
/** The remote-token guard's settings (original-behaviour §2.12). */
export type RemoteTokenConfig = ReturnType<typeof remoteTokenConfig>;

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
    // The server waits 5 s longer than the SDK's MCPBASH_ELICITATION_TIMEOUT: the tool gives up first.
    elicitationTimeoutMs: (values.MCPBASH_ELICITATION_TIMEOUT + 5) * 1000,
    samplingTimeoutMs: (values.MCPBASH_SAMPLING_TIMEOUT + 5) * 1000,
    subscribeTimeoutSecs: values.MCPBASH_DEFAULT_SUBSCRIBE_TIMEOUT,
    resourcesPollIntervalMs: values.MCPBASH_RESOURCES_POLL_INTERVAL_SECS * 1000,
    completionTimeoutSecs: values.MCPBASH_COMPLETION_TIMEOUT_SECS,
  };
}

/** JSON.stringify writes a control character as `\u00XX`: six bytes for one. */
const WORST_ESCAPE = 6;
/** The envelope around a response's parts: ids, member names, `_meta`, a validation note. */
const ENVELOPE_BYTES = 64 * 1024;

/**
 * The response caps (D285) are the largest answer a request can give when every part is
 * within its own cap, so such a result is always sent. A tools/call answer carries what the
 * tool printed twice (the text and structuredContent), each byte escaped at worst, with the
 * stderr tail and the attachments (MCPBASH_MAX_RESOURCE_BYTES in all, base64 or text); a
 * resources/read answer one payload within its cap.
 */
function responseCaps(values: SettingValues) {
  const { MCPBASH_MAX_TOOL_OUTPUT_SIZE: output, MCPBASH_TOOL_STDERR_TAIL_LIMIT: tail } = values;
  const { MCPBASH_MAX_RESOURCE_BYTES: resource, MCPBASH_MAX_UI_RESOURCE_BYTES: uiResource } = values;
  return {
    toolCallResponseBytes: WORST_ESCAPE * (2 * output + tail + resource) + ENVELOPE_BYTES,
    resourceReadResponseBytes: WORST_ESCAPE * Math.max(resource, uiResource) + ENVELOPE_BYTES,
  };
}

function limits(values: SettingValues) {
  return {
    ...responseCaps(values),
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
export function remoteTokenConfig(values: SettingValues) {
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
export function serverConfig(config: Config) {
  const { values } = config;
  return {
    ...limits(values),
    ...timeouts(values),
    stderrCapture: values.MCPBASH_TOOL_STDERR_CAPTURE,
    streamToolStderr: values.MCPBASH_TOOL_STREAM_STDERR,
    liveProgress: values.MCPBASH_ENABLE_LIVE_PROGRESS, // on by default (D5)
    compatBatches: values.MCPBASH_COMPAT_BATCHES,
    forceMinimal: minimalModeReason(values) !== undefined,
    preserveState: values.MCPBASH_PRESERVE_STATE,
    trace: {
      enabled: values.MCPBASH_TRACE_TOOLS,
      ps4: values.MCPBASH_TRACE_PS4,
      maxBytes: values.MCPBASH_TRACE_MAX_BYTES,
    },
    debugPayloads: values.MCPBASH_DEBUG_PAYLOADS,
    transport: values.MCPBASH_TRANSPORT ?? values.MCP_TRANSPORT, // only stdio is served here (serve --http is its own)
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
