import type { FrameworkHome } from '../assets/framework-home.js';
import { VERSION } from '../build-info.js';
import type { Env } from '../config/env-values.js';
import type { ServerConfig } from '../config/server-config.js';
import type { JsonToolChoice } from '../process/json-tool.js';
import { ProcessRegistry } from '../process/process-runner.js';
import type { ProjectLayout } from '../project/project-layout.js';
import type { RootEntry } from '../project/roots.js';
import type { ServerIdentity } from '../project/server-identity.js';
import type { LoggingLevel, LogSink } from '../spec/logging-levels.js';
import { SchemaValidator } from '../validation/json-schema.js';
import { CallDirectoryPool } from './call-directory.js';
import type { PolicyWording } from './tool-call-checks.js';

/**
 * Answers a tool's request for the client, an elicitation or a sampling (the server's bridge
 * to the client; run-tool has none, or answers from a file).
 */
export interface ClientRequestBridge {
  /** The client takes these requests (MCP_*_SUPPORTED); `ask` declines when it does not. */
  readonly supported: boolean;
  /**
   * Elicitation only: what becomes of a URL elicitation (MCP_ELICIT_URL, D296): `ask` the
   * client shows it, `error` the call fails with -32042 naming the URL (the client cannot
   * show it, in a 2025-11-25 session); absent, it is declined.
   */
  readonly urlElicitation?: 'ask' | 'error';
  /**
   * Resolves with the normalised answer `{action, content}` written back to the tool; rejects
   * with an RpcError when the whole call must fail with it (the tool is then stopped).
   */
  ask(request: unknown, signal: AbortSignal): Promise<{ action: string; content: unknown }>;
}

/** Where tools run: the project, the framework, the launch environment and settings, scratch space. */
export interface ToolPaths {
  readonly layout: ProjectLayout;
  readonly home: FrameworkHome;
  readonly identity: ServerIdentity;
  readonly env: Env;
  readonly config: ServerConfig;
  readonly stateDir: string;
}

/** What starts and tracks the processes of the calls. */
interface ToolProcesses {
  readonly processes: ProcessRegistry;
  readonly jsonTool: JsonToolChoice;
  /**
   * The warm built-in jq's address for MCPBASH_JQ_SERVICE when `jsonTool` is the built-in
   * one (started on first use; undefined where there is none, as in run-tool).
   */
  jqService(): Promise<string | undefined>;
  /** Where each call gets its private directory (under stateDir). */
  readonly callDirectories: CallDirectoryPool;
  /** A fresh id for a call (MCPBASH_WORKER_KEY). */
  nextCallKey(): string;
  /** Live stderr of every tool (MCPBASH_TOOL_STREAM_STDERR, run-tool --verbose). */
  readonly onToolStderr: ((chunk: Buffer) => void) | undefined;
}

/** The client's side of the calls: none in run-tool, where the roots are fixed. */
interface ClientBridge {
  /** The roots tools see; waits (bounded) for the client's first answer. */
  roots(): Promise<readonly RootEntry[]>;
  /**
   * The roots attachments may come from (besides the call's own directory): the server's
   * reads, which a remote client's roots do not widen (D289).
   */
  attachmentRoots(): Promise<readonly RootEntry[]>;
  /**
   * Whether the client renders MCP Apps views (MCPBASH_CLIENT_SUPPORTS_UI); undefined in
   * run-tool, where tools keep the variable of the launch environment.
   */
  clientSupportsUi(): boolean | undefined;
}

/** The log of the calls, with the level the client asked for (logging/setLevel). */
interface ToolLog extends LogSink {
  readonly level: LoggingLevel;
  isEnabled(level: LoggingLevel): boolean;
}

/** Which tools may run beyond the allowlist, and how a refusal is worded where they run. */
interface ToolPermissions {
  /** Tools allowed without being in the allowlist (the getting-started tool). */
  readonly implicitlyAllowed: readonly string[];
  /** Extra allowlist entries (run-tool --allow, --allow-self, --allow-all). */
  readonly extraAllowed: readonly string[];
  readonly policyWording: PolicyWording;
}

/**
 * Everything a tool call needs from its surroundings, by role; built once per server session
 * (or per run-tool) by createToolRuntime, so both run calls through the same path.
 */
export interface ToolRuntime extends ToolPaths, ToolProcesses, ToolPermissions {
  readonly client: ClientBridge;
  readonly log: ToolLog;
  readonly validator: SchemaValidator;
  readonly version: string;
}

/** What the checks before a call need: where it runs, who may run what, the log and the schema validator. */
export type CheckRoles = ToolPaths & ToolPermissions & Pick<ToolRuntime, 'log' | 'validator' | 'jsonTool'>;

/** What differs between the server and run-tool; the rest of a ToolRuntime is the same for both. */
export interface ToolRuntimeInput extends ToolPaths, Partial<ToolPermissions> {
  readonly log: ToolLog;
  readonly client: ClientBridge;
  readonly jsonTool: JsonToolChoice;
  readonly policyWording: PolicyWording;
  /** The server's shared ones; run-tool gets its own. */
  readonly processes?: ProcessRegistry;
  readonly validator?: SchemaValidator;
  readonly jqService?: () => Promise<string | undefined>;
  /** Call keys are `<prefix>-<n>`. */
  readonly callKeyPrefix: string;
  readonly onToolStderr?: ((chunk: Buffer) => void) | undefined;
}

export function createToolRuntime(input: ToolRuntimeInput): ToolRuntime {
  let calls = 0;
  return {
    ...input,
    implicitlyAllowed: input.implicitlyAllowed ?? [],
    extraAllowed: input.extraAllowed ?? [],
    processes: input.processes ?? new ProcessRegistry(),
    validator: input.validator ?? new SchemaValidator(),
    jqService: input.jqService ?? (async () => undefined),
    onToolStderr: input.onToolStderr,
    callDirectories: new CallDirectoryPool(input.stateDir),
    version: VERSION,
    nextCallKey: () => {
      calls += 1;
      return `${input.callKeyPrefix}-${calls}`;
    },
  };
}
