import { isAbsolute, resolve } from 'node:path';
import type { ProviderConfig } from '../config/slices.js';
import { ProjectError } from '../project/project-error.js';
import { layoutEnvironment, type ProjectLayout } from '../project/project-layout.js';
import type { ScriptHost, ScriptRun } from './script-run.js';

/** MCPBASH_PROVIDER_ENV_MODE: what providers and completion scripts inherit from the server. */
type ProviderEnvMode = 'isolate' | 'allowlist' | 'inherit';

/** Variables kept in isolate mode (1.x's curated list, original-behaviour §6.1). */
const KEPT_VARIABLES = new Set([
  'PATH',
  'HOME',
  'TMPDIR',
  'TMP',
  'TEMP',
  'LANG',
  'USERPROFILE',
  'APPDATA',
  'LOCALAPPDATA',
  'SYSTEMROOT',
  'SystemRoot',
  'COMSPEC',
  'PATHEXT',
  'MSYSTEM',
  'MSYS2_ARG_CONV_EXCL',
  'MCPBASH_ENABLE_GIT_PROVIDER',
  'HTTP_PROXY',
  'HTTPS_PROXY',
  'NO_PROXY',
  'ALL_PROXY',
  'http_proxy',
  'https_proxy',
  'no_proxy',
  'all_proxy',
  'GIT_SSH',
  'GIT_SSH_COMMAND',
  'SSH_AUTH_SOCK',
  'SSL_CERT_FILE',
  'SSL_CERT_DIR',
  'CURL_CA_BUNDLE',
  'GIT_SSL_CAINFO',
  'GIT_SSL_CAPATH',
]);
const KEPT_PREFIXES = ['LC_', 'MCP_', 'MCPBASH_GIT_', 'MCPBASH_HTTPS_'];

const DEFAULTS: Readonly<Record<string, (layout: ProjectLayout) => string>> = {
  PATH: () => '/usr/bin:/bin',
  HOME: (layout) => layout.root,
  TMPDIR: () => '/tmp',
  LANG: () => 'C',
};

/**
 * The mode from MCPBASH_PROVIDER_ENV_MODE; `inherit` needs MCPBASH_PROVIDER_ENV_INHERIT_ALLOW=true.
 * Without it the server is misconfigured, not the request: -32603, naming what to set.
 */
function providerEnvMode(config: ProviderConfig): ProviderEnvMode {
  const mode = config.envMode;
  if (mode === 'inherit') {
    if (!config.inheritAllowed) {
      throw ProjectError.failed(
        'Server misconfigured: MCPBASH_PROVIDER_ENV_MODE=inherit gives providers the whole server environment; ' +
          'set MCPBASH_PROVIDER_ENV_INHERIT_ALLOW=true in the server environment to confirm, or use ' +
          'MCPBASH_PROVIDER_ENV_MODE=allowlist',
      );
    }
    return 'inherit';
  }
  return mode;
}

function inherited(input: ScriptHost, mode: ProviderEnvMode): Record<string, string> {
  const { env: serverEnv, layout } = input;
  const env: Record<string, string> = {};
  const keep = (key: string) =>
    mode === 'inherit' || KEPT_VARIABLES.has(key) || KEPT_PREFIXES.some((prefix) => key.startsWith(prefix));
  for (const [key, value] of Object.entries(serverEnv)) {
    if (value !== undefined && keep(key)) env[key] = value;
  }
  if (mode === 'allowlist') {
    for (const key of input.config.envAllowlist) {
      const value = serverEnv[key];
      if (value !== undefined) env[key] = value;
    }
  }
  for (const [key, fallback] of Object.entries(DEFAULTS)) {
    if (!env[key]) env[key] = fallback(layout);
  }
  return env;
}

/**
 * The roots the file provider serves. The server's MCP_RESOURCES_ROOTS is the operator's
 * explicit scope and wins (relative entries taken relative to the project root, D14).
 * Otherwise: the resources directory plus the session's configured MCP roots (seed 004:
 * the file provider enforces MCPBASH_ROOTS, config/roots.json or client roots) - never the
 * implicit project-root stand-in, which the caller leaves out.
 */
export function resourceRoots(
  config: Pick<ProviderConfig, 'resourceRoots'>,
  layout: ProjectLayout,
  sessionRoots: readonly string[] = [],
): string[] {
  const value = config.resourceRoots;
  if (value !== undefined) {
    return value
      .split(':')
      .filter((entry) => entry !== '')
      .map((entry) => (isAbsolute(entry) ? entry : resolve(layout.root, entry)));
  }
  return [...new Set([layout.resourcesDir, ...sessionRoots].filter((root) => root !== ''))];
}

/** The roots as MCP_RESOURCES_ROOTS: a root whose path holds ":" would widen the list, so it is left out. */
function resourceRootsVariable(roots: readonly string[]): string {
  return roots.filter((root) => !root.includes(':')).join(':');
}

/**
 * The environment of a resource provider or completion script (original-behaviour §6.1):
 * the curated variables of the mode, the project layout, MCPBASH_HOME, MCP_SDK (the shared
 * URL policy lives there) and MCP_RESOURCES_ROOTS.
 */
export function buildProviderEnvironment(
  host: ScriptHost,
  run: Pick<ScriptRun, 'extra' | 'sessionRoots'> = {},
): NodeJS.ProcessEnv {
  const { layout, home } = host;
  return {
    ...inherited(host, providerEnvMode(host.config)),
    ...layoutEnvironment(layout),
    MCPBASH_HOME: home.root,
    MCP_SDK: home.sdkDir,
    MCPBASH_BIN: host.selfBinary,
    MCP_RESOURCES_ROOTS: resourceRootsVariable(resourceRoots(host.config, layout, run.sessionRoots)),
    ...run.extra,
  };
}
