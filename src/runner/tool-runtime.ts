import type { FrameworkHome } from '../assets/framework-home.js';
import type { Env } from '../config/env-values.js';
import type { ServerConfig } from '../config/server-config.js';
import type { JsonToolChoice } from '../process/json-tool.js';
import type { ProcessRegistry } from '../process/process-runner.js';
import type { ProjectLayout } from '../project/project-layout.js';
import type { RootEntry } from '../project/roots.js';
import type { ServerIdentity } from '../project/server-identity.js';
import type { LoggingLevel, LogSink } from '../spec/logging-levels.js';
import type { SchemaValidator } from '../validation/json-schema.js';
import type { CallDirectoryPool } from './call-directory.js';
import type { PolicyWording } from './tool-policy.js';

/** Answers a tool's elicitation request (the server's bridge to the client; none in run-tool). */
export interface ElicitationBridge {
  readonly supported: boolean;
  /** Resolves with the normalised answer `{action, content}` written back to the tool. */
  ask(request: unknown, signal: AbortSignal): Promise<{ action: string; content: unknown }>;
}

/** Takes one slot per event; false once the cap is reached (the event is dropped). */
interface RateLimit {
  tryTake(): boolean;
}

/**
 * Everything a tool call needs from its surroundings, built once per server (or per
 * run-tool): the same execution path serves both.
 */
export interface ToolRuntime {
  readonly layout: ProjectLayout;
  readonly home: FrameworkHome;
  readonly identity: ServerIdentity;
  readonly env: Env;
  readonly config: ServerConfig;
  readonly stateDir: string;
  readonly jsonTool: JsonToolChoice;
  /**
   * The warm built-in jq's address for MCPBASH_JQ_SERVICE when `jsonTool` is the built-in
   * one (started on first use; undefined where there is none, as in run-tool).
   */
  jqService(): Promise<string | undefined>;
  readonly processes: ProcessRegistry;
  readonly validator: SchemaValidator;
  readonly log: LogSink;
  readonly version: string;
  /** Tools allowed without being in the allowlist (the getting-started tool). */
  readonly implicitlyAllowed: readonly string[];
  /** Extra allowlist entries (run-tool --allow, --allow-self, --allow-all). */
  readonly extraAllowed: readonly string[];
  /** How policy refusals are worded where this runtime runs (the server's, or run-tool's). */
  readonly policyWording: PolicyWording;
  /** A per-call cap on notifications: at most `perMinute` in any minute (progress, logs). */
  rateLimit(perMinute: number): RateLimit;
  /** The roots tools see; waits (bounded) for the client's first answer. */
  roots(): Promise<readonly RootEntry[]>;
  /**
   * The roots attachments may come from (besides the call's own directory): the server's
   * reads, which a remote client's roots do not widen (D289). Default: `roots()`.
   */
  attachmentRoots?(): Promise<readonly RootEntry[]>;
  logLevel(): LoggingLevel;
  isLogLevelEnabled(level: LoggingLevel): boolean;
  readonly elicitation: ElicitationBridge | undefined;
  /**
   * Whether the client renders MCP Apps views (MCPBASH_CLIENT_SUPPORTS_UI); none in run-tool,
   * where tools keep the variable of the launch environment.
   */
  readonly clientSupportsUi?: () => boolean;
  /** Live stderr of every tool (MCPBASH_TOOL_STREAM_STDERR, run-tool --verbose). */
  readonly onToolStderr: ((chunk: Buffer) => void) | undefined;
  /** A fresh id for a call (MCPBASH_WORKER_KEY). */
  nextCallKey(): string;
  /** Where each call gets its private directory (under stateDir). */
  readonly callDirectories: CallDirectoryPool;
}
