import { writeFileSync } from 'node:fs';
import type { FrameworkHome } from '../assets/framework-home.js';
import type { Env } from '../config/env-values.js';
import { type RawNumber, stringifyExact } from '../json/raw-number.js';
import type { JsonToolChoice } from '../process/json-tool.js';
import { layoutEnvironment, type ProjectLayout } from '../project/project-layout.js';
import type { RootEntry } from '../project/roots.js';
import { identityEnvironment, type ServerIdentity } from '../project/server-identity.js';
import type { ProgressToken } from '../spec/types.js';
import type { CallPaths } from './call-directory.js';
import { flatArguments } from './flat-arguments.js';
import { selfBinary } from './self-binary.js';

export type ToolEnvMode = 'minimal' | 'allowlist' | 'inherit';

export interface ToolEnvironmentInput {
  readonly serverEnv: Env;
  readonly mode: ToolEnvMode;
  /** MCPBASH_TOOL_ENV_ALLOWLIST names (allowlist mode). */
  readonly allowlist: readonly string[];
  readonly layout: ProjectLayout;
  readonly home: FrameworkHome;
  readonly identity: ServerIdentity;
  readonly stateDir: string;
  readonly jsonTool: JsonToolChoice;
  /** MCPBASH_JQ_SERVICE: where the SDK reaches the warm built-in jq (none: unset). */
  readonly jqService: string | undefined;
  readonly minimalMode: boolean;
  readonly toolName: string;
  readonly toolPath: string;
  readonly metadata: unknown;
  readonly args: unknown;
  readonly meta: unknown;
  /** A RawNumber's text is the token as the client wrote it. */
  readonly progressToken: ProgressToken | RawNumber | undefined;
  readonly paths: CallPaths;
  readonly roots: readonly RootEntry[];
  readonly elicitationSupported: boolean;
  /** What becomes of a URL elicitation (MCP_ELICIT_URL): shown, the call failing with -32042, or declined. */
  readonly urlElicitation?: 'ask' | 'error';
  /** The client can sample its model (`sampling` capability): MCP_SAMPLE_SUPPORTED and the request files. */
  readonly samplingSupported: boolean;
  /** MCPBASH_CLIENT_SUPPORTS_UI `1`/`0`; undefined keeps the inherited value (run-tool). */
  readonly clientSupportsUi: boolean | undefined;
  readonly payloadThreshold: number;
  readonly workerKey: string;
  readonly logLevel: string;
  readonly version: string;
}

/** Variables a tool keeps in every mode (Windows needs a few to start processes at all). */
const BASE_VARIABLES = [
  'PATH',
  'HOME',
  'TMPDIR',
  'LANG',
  'SYSTEMROOT',
  'SystemRoot',
  'COMSPEC',
  'PATHEXT',
  'USERPROFILE',
  'APPDATA',
  'LOCALAPPDATA',
  'MSYSTEM',
  'MSYS2_ARG_CONV_EXCL',
];
/** The PATH tools get when the server has none (1.x §3.4). */
export const DEFAULT_TOOL_PATH = '/usr/bin:/bin';

const BASE_DEFAULTS: Readonly<Record<string, (layout: ProjectLayout) => string>> = {
  PATH: () => DEFAULT_TOOL_PATH,
  HOME: (layout) => layout.root,
  TMPDIR: () => '/tmp',
  LANG: () => 'C',
};

/** What a tool inherits from the server before mcp-bash adds its own variables. */
function inheritedVariables(input: ToolEnvironmentInput): Record<string, string> {
  const env: Record<string, string> = {};
  const source = input.serverEnv;
  if (input.mode === 'inherit') {
    for (const [key, value] of Object.entries(source)) if (value !== undefined) env[key] = value;
    return env;
  }
  for (const key of BASE_VARIABLES) {
    const value = source[key];
    if (value !== undefined && value !== '') env[key] = value;
  }
  for (const [key, fallback] of Object.entries(BASE_DEFAULTS)) env[key] ??= fallback(input.layout);
  for (const [key, value] of Object.entries(source)) {
    if (value !== undefined && (key.startsWith('MCP_') || key.startsWith('MCPBASH_'))) env[key] = value;
  }
  if (input.mode === 'allowlist') {
    for (const key of input.allowlist) {
      const value = source[key];
      if (value !== undefined) env[key] = value;
    }
  }
  return env;
}

/**
 * Sets `<name>_JSON`, or - above the payload threshold, where environment size limits
 * (E2BIG) bite - writes the file and sets `<name>_FILE` with an empty `<name>_JSON`. A
 * progress token beyond 2^53 in `_meta` is written as the client sent it.
 */
function setPayload(env: Record<string, string>, name: string, value: unknown, file: string, threshold: number): void {
  const json = stringifyExact(value ?? {}) ?? '{}';
  if (Buffer.byteLength(json) > threshold) {
    writeFileSync(file, json);
    env[`${name}_FILE`] = file;
    env[`${name}_JSON`] = '';
  } else {
    env[`${name}_JSON`] = json;
  }
}

/** The environment of one tool call (original-behaviour §3.3-3.4, docs/TOOL-CONTRACT.md). */
export function buildToolEnvironment(input: ToolEnvironmentInput): NodeJS.ProcessEnv {
  const env = inheritedVariables(input);
  for (const stale of ['MCP_TOOL_ARGS_FILE', 'MCP_TOOL_META_FILE', 'MCP_TOOL_METADATA_FILE']) delete env[stale];
  Object.assign(env, layoutEnvironment(input.layout), identityEnvironment(input.identity), {
    MCPBASH_HOME: input.home.root,
    MCP_SDK: input.home.sdkDir,
    MCPBASH_STATE_DIR: input.stateDir,
    MCPBASH_BIN: selfBinary(input.stateDir),
    MCPBASH_MODE: input.minimalMode ? 'minimal' : 'full',
    MCPBASH_JSON_TOOL: input.minimalMode ? 'none' : input.jsonTool.name,
    MCPBASH_JSON_TOOL_BIN: input.minimalMode ? '' : input.jsonTool.bin,
    MCPBASH_FRAMEWORK_VERSION: input.version,
    MCPBASH_WORKER_KEY: input.workerKey,
    MCPBASH_LOG_LEVEL: input.logLevel,
    MCPBASH_DEBUG_LOG: input.paths.debugLog,
    MCP_TOOL_NAME: input.toolName,
    MCP_TOOL_PATH: input.toolPath,
    MCP_TOOL_ERROR_FILE: input.paths.error,
    MCP_TOOL_RESOURCES_FILE: input.paths.resources,
    MCP_TOOL_CALL_DIR: input.paths.files,
    MCP_PROGRESS_STREAM: input.paths.progress,
    MCP_PROGRESS_TOKEN: input.progressToken === undefined ? '' : String(input.progressToken),
    MCP_LOG_STREAM: input.paths.log,
    MCP_CANCEL_FILE: input.paths.cancel,
    MCP_ELICIT_SUPPORTED: input.elicitationSupported ? '1' : '0',
    MCP_ELICIT_URL: input.urlElicitation === 'ask' ? '1' : (input.urlElicitation ?? '0'),
    MCP_SAMPLE_SUPPORTED: input.samplingSupported ? '1' : '0',
    MCP_ROOTS_JSON: JSON.stringify(input.roots),
    MCP_ROOTS_PATHS: input.roots.map((root) => root.path).join('\n'),
    MCP_ROOTS_COUNT: String(input.roots.length),
  });
  if (input.clientSupportsUi !== undefined) env.MCPBASH_CLIENT_SUPPORTS_UI = input.clientSupportsUi ? '1' : '0';
  if (input.jqService && !input.minimalMode) env.MCPBASH_JQ_SERVICE = input.jqService;
  else delete env.MCPBASH_JQ_SERVICE;
  // The files of the requests a tool may make of the client, only when the client takes them.
  const { paths } = input;
  const requestFiles = [
    [
      input.elicitationSupported || input.urlElicitation === 'error',
      ['MCP_ELICIT_REQUEST_FILE', paths.elicitRequest],
      ['MCP_ELICIT_RESPONSE_FILE', paths.elicitResponse],
    ],
    [
      input.samplingSupported,
      ['MCP_SAMPLE_REQUEST_FILE', paths.sampleRequest],
      ['MCP_SAMPLE_RESPONSE_FILE', paths.sampleResponse],
    ],
  ] as const;
  for (const [supported, ...files] of requestFiles) {
    for (const [name, path] of files) {
      if (supported) env[name] = path;
      else delete env[name];
    }
  }
  setPayload(env, 'MCP_TOOL_ARGS', input.args, input.paths.args, input.payloadThreshold);
  // The plain paths of small arguments, for the SDK to read without a JSON process (D298).
  const flat = env.MCP_TOOL_ARGS_FILE ? undefined : flatArguments(input.args ?? {}, env.MCP_TOOL_ARGS_JSON as string);
  if (flat !== undefined && Buffer.byteLength(flat) <= input.payloadThreshold) env.MCP_TOOL_ARGS_FLAT = flat;
  else delete env.MCP_TOOL_ARGS_FLAT;
  setPayload(env, 'MCP_TOOL_META', input.meta, input.paths.meta, input.payloadThreshold);
  setPayload(env, 'MCP_TOOL_METADATA', input.metadata, input.paths.metadata, input.payloadThreshold);
  return env;
}
