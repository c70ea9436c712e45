import type { SettingValues } from './settings.js';

/** `doctor --fix` upgrades of the binary. */
export function upgradeConfig(values: SettingValues) {
  return {
    releaseBaseUrl: values.MCPBASH_RELEASE_BASE_URL,
    keepBackup: values.MCPBASH_DOCTOR_KEEP_BACKUP,
    lockTimeoutMs: values.MCPBASH_DOCTOR_LOCK_TIMEOUT_SECS * 1000,
    lockPollMs: Math.max(values.MCPBASH_DOCTOR_LOCK_POLL_SECS * 1000, 1),
  };
}

/** Discovery and registries (project/): caching, trust, bounds. */
export function registryConfig(values: SettingValues) {
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

/** Who may run which tool, and what tools inherit (runner/). */
export function toolsConfig(values: SettingValues) {
  return {
    allowlist: values.MCPBASH_TOOL_ALLOWLIST,
    allowWhenEmpty: values.MCPBASH_TOOL_ALLOW_DEFAULT !== 'deny',
    envMode: values.MCPBASH_TOOL_ENV_MODE,
    inheritAllowed: values.MCPBASH_TOOL_ENV_INHERIT_ALLOW,
    envAllowlist: values.MCPBASH_TOOL_ENV_ALLOWLIST,
  };
}

/** What providers and completion scripts inherit, and what the file provider serves (providers/). */
export function providerConfig(values: SettingValues) {
  return {
    envMode: values.MCPBASH_PROVIDER_ENV_MODE,
    inheritAllowed: values.MCPBASH_PROVIDER_ENV_INHERIT_ALLOW,
    envAllowlist: values.MCPBASH_PROVIDER_ENV_ALLOWLIST,
    resourceRoots: values.MCP_RESOURCES_ROOTS,
  };
}

/** Which JSON tool scripts get (process/json-tool.ts). */
export function jsonToolConfig(values: SettingValues) {
  return {
    tool: values.MCPBASH_JSON_TOOL,
    bin: values.MCPBASH_JSON_TOOL_BIN,
    binForRoot: values.MCPBASH_ALLOW_JSON_TOOL_OVERRIDE_FOR_ROOT,
  };
}

/** The server log, and the CLI's diagnostics. */
export function logConfig(values: SettingValues) {
  return {
    level: values.MCPBASH_LOG_LEVEL,
    levelDefault: values.MCPBASH_LOG_LEVEL_DEFAULT,
    quiet: values.MCPBASH_QUIET,
    timestamps: values.MCPBASH_LOG_TIMESTAMP,
  };
}

/** Where the project, the framework files and the state directory are. */
export function pathsConfig(values: SettingValues) {
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

export type RegistryConfig = ReturnType<typeof registryConfig>;
export type ProviderConfig = ReturnType<typeof providerConfig>;
export type JsonToolConfig = ReturnType<typeof jsonToolConfig>;
export type LogConfig = ReturnType<typeof logConfig>;
export type PathsConfig = ReturnType<typeof pathsConfig>;
export type UpgradeConfig = ReturnType<typeof upgradeConfig>;
