import type { LoggingLevel } from '../spec/logging-levels.js';
import type { SettingValues } from './settings.js';

/** Discovery and registries (project/): caching, trust, bounds. */
export interface RegistryConfig {
  /** How long each kind's scan is reused (MCP_*_TTL, MCPBASH_REGISTER_TTL). */
  readonly ttlMs: {
    readonly tools: number;
    readonly resources: number;
    readonly resourceTemplates: number;
    readonly prompts: number;
    readonly ui: number;
    readonly register: number;
  };
  readonly staticMode: boolean;
  readonly allowHooks: boolean;
  /** A larger registry (and list response) is an error. */
  readonly maxBytes: number;
  /** Largest register.json. */
  readonly maxManualBytes: number;
  /** Largest register.sh output and registrations. */
  readonly bufferMaxBytes: number;
  readonly verbose: boolean;
  /** MCPBASH_REGISTRY_REFRESH_PATH: scan only this sub-path of tools/. */
  readonly refreshPath: string | undefined;
}

/** Who may run which tool, and what tools inherit (runner/). */
export interface ToolsConfig {
  /** MCPBASH_TOOL_ALLOWLIST; `*` or `all` allow every tool. */
  readonly allowlist: readonly string[];
  /** MCPBASH_TOOL_ALLOW_DEFAULT=allow|all: an empty allowlist allows everything. */
  readonly allowWhenEmpty: boolean;
  readonly envMode: 'minimal' | 'allowlist' | 'inherit';
  readonly inheritAllowed: boolean;
  readonly envAllowlist: readonly string[];
}

/** What providers and completion scripts inherit, and what the file provider serves (providers/). */
export interface ProviderConfig {
  readonly envMode: 'isolate' | 'allowlist' | 'inherit';
  readonly inheritAllowed: boolean;
  readonly envAllowlist: readonly string[];
  /** MCP_RESOURCES_ROOTS as the operator set it (colon list), if at all. */
  readonly resourceRoots: string | undefined;
}

/** Which JSON tool scripts get (process/json-tool.ts). */
export interface JsonToolConfig {
  readonly tool: 'auto' | 'gojq' | 'jq' | 'none';
  readonly bin: string | undefined;
  readonly binForRoot: boolean;
}

/** The server log, and the CLI's diagnostics. */
export interface LogConfig {
  /** MCPBASH_LOG_LEVEL; undefined: `server.d/.debug` or MCPBASH_LOG_LEVEL_DEFAULT decide. */
  readonly level: LoggingLevel | undefined;
  readonly levelDefault: LoggingLevel;
  readonly quiet: boolean;
  readonly timestamps: boolean;
}

/** Where the project, the framework files and the state directory are. */
export interface PathsConfig {
  readonly projectRoot: string | undefined;
  /** MCPBASH_*_DIR overrides of the project layout (relative ones from the project root). */
  readonly layout: {
    readonly toolsDir: string | undefined;
    readonly resourcesDir: string | undefined;
    readonly promptsDir: string | undefined;
    readonly serverDir: string | undefined;
    readonly providersDir: string | undefined;
    readonly completionsDir: string | undefined;
    readonly uiDir: string | undefined;
    readonly registryDir: string | undefined;
  };
  readonly home: string | undefined;
  readonly tmpRoot: string | undefined;
  readonly stateDir: string | undefined;
  readonly preserveState: boolean;
  /** MCPBASH_ROOTS: a colon list of paths. */
  readonly roots: string | undefined;
  /** MCPBASH_LOG_STARTUP: say how the framework files were found. */
  readonly logStartup: boolean;
}

/** `doctor --fix` upgrades of the binary. */
export interface UpgradeConfig {
  /** MCPBASH_RELEASE_BASE_URL: the directory of one release's archives (`{version}` replaced). */
  readonly releaseBaseUrl: string | undefined;
  readonly keepBackup: boolean;
  readonly lockTimeoutMs: number;
  readonly lockPollMs: number;
}

export function upgradeConfig(values: SettingValues): UpgradeConfig {
  return {
    releaseBaseUrl: values.MCPBASH_RELEASE_BASE_URL,
    keepBackup: values.MCPBASH_DOCTOR_KEEP_BACKUP,
    lockTimeoutMs: values.MCPBASH_DOCTOR_LOCK_TIMEOUT_SECS * 1000,
    lockPollMs: Math.max(values.MCPBASH_DOCTOR_LOCK_POLL_SECS * 1000, 1),
  };
}

export function registryConfig(values: SettingValues): RegistryConfig {
  return {
    ttlMs: {
      tools: values.MCP_TOOLS_TTL * 1000,
      resources: values.MCP_RESOURCES_TTL * 1000,
      resourceTemplates: values.MCP_RESOURCES_TEMPLATES_TTL * 1000,
      prompts: values.MCP_PROMPTS_TTL * 1000,
      ui: values.MCP_UI_TTL * 1000,
      register: values.MCPBASH_REGISTER_TTL * 1000,
    },
    staticMode: values.MCPBASH_STATIC_REGISTRY,
    allowHooks: values.MCPBASH_ALLOW_PROJECT_HOOKS,
    maxBytes: values.MCPBASH_REGISTRY_MAX_BYTES,
    maxManualBytes: values.MCPBASH_MAX_MANUAL_REGISTRY_BYTES,
    bufferMaxBytes: values.MCPBASH_MANUAL_BUFFER_MAX_BYTES,
    verbose: values.MCPBASH_LOG_VERBOSE,
    refreshPath: values.MCPBASH_REGISTRY_REFRESH_PATH,
  };
}

export function toolsConfig(values: SettingValues): ToolsConfig {
  return {
    allowlist: values.MCPBASH_TOOL_ALLOWLIST,
    allowWhenEmpty: values.MCPBASH_TOOL_ALLOW_DEFAULT !== 'deny',
    envMode: values.MCPBASH_TOOL_ENV_MODE,
    inheritAllowed: values.MCPBASH_TOOL_ENV_INHERIT_ALLOW,
    envAllowlist: values.MCPBASH_TOOL_ENV_ALLOWLIST,
  };
}

export function providerConfig(values: SettingValues): ProviderConfig {
  return {
    envMode: values.MCPBASH_PROVIDER_ENV_MODE,
    inheritAllowed: values.MCPBASH_PROVIDER_ENV_INHERIT_ALLOW,
    envAllowlist: values.MCPBASH_PROVIDER_ENV_ALLOWLIST,
    resourceRoots: values.MCP_RESOURCES_ROOTS,
  };
}

export function jsonToolConfig(values: SettingValues): JsonToolConfig {
  return {
    tool: values.MCPBASH_JSON_TOOL,
    bin: values.MCPBASH_JSON_TOOL_BIN,
    binForRoot: values.MCPBASH_ALLOW_JSON_TOOL_OVERRIDE_FOR_ROOT,
  };
}

export function logConfig(values: SettingValues): LogConfig {
  return {
    level: values.MCPBASH_LOG_LEVEL,
    levelDefault: values.MCPBASH_LOG_LEVEL_DEFAULT,
    quiet: values.MCPBASH_QUIET,
    timestamps: values.MCPBASH_LOG_TIMESTAMP,
  };
}

export function pathsConfig(values: SettingValues): PathsConfig {
  return {
    projectRoot: values.MCPBASH_PROJECT_ROOT,
    layout: {
      toolsDir: values.MCPBASH_TOOLS_DIR,
      resourcesDir: values.MCPBASH_RESOURCES_DIR,
      promptsDir: values.MCPBASH_PROMPTS_DIR,
      serverDir: values.MCPBASH_SERVER_DIR,
      providersDir: values.MCPBASH_PROVIDERS_DIR,
      completionsDir: values.MCPBASH_COMPLETIONS_DIR,
      uiDir: values.MCPBASH_UI_DIR,
      registryDir: values.MCPBASH_REGISTRY_DIR,
    },
    home: values.MCPBASH_HOME,
    tmpRoot: values.MCPBASH_TMP_ROOT,
    stateDir: values.MCPBASH_STATE_DIR,
    preserveState: values.MCPBASH_PRESERVE_STATE,
    roots: values.MCPBASH_ROOTS,
    logStartup: values.MCPBASH_LOG_STARTUP,
  };
}
