import type { FailureWording } from '../process/process-result.js';
import { type CompletionPage, parseCompletionOutput } from '../project/completions/completion-output.js';
import type { CompletionSource } from '../project/completions/completion-source.js';
import { ProjectError } from '../project/project-error.js';
import type { ProjectLayout } from '../project/project-layout.js';
import type { JsonObject } from '../spec/types.js';
import { runScript, type ScriptHost, throwIfScriptFailed } from './script-run.js';

/** Completion output is a short list; more than this is a broken script. */
const MAX_OUTPUT_BYTES = 1024 * 1024;

export interface CompletionHost extends ScriptHost {
  readonly jsonTool: { readonly name: string; readonly bin: string };
  /** MCPBASH_COMPLETION_TIMEOUT_SECS: for scripts whose registration sets no timeoutSecs (0: none). */
  readonly defaultTimeoutSecs: number;
}

export interface CompletionRequest {
  readonly name: string;
  /** MCP_COMPLETION_ARGS_JSON: `{query, prefix, argument:{name,value}, context:{arguments}, ref}`. */
  readonly args: JsonObject;
  readonly argsHash: string;
  readonly limit: number;
  readonly offset: number;
  readonly scriptCursor?: string;
}

type ScriptSource = Exclude<CompletionSource, { kind: 'builtin' }>;

/** The MCP_PROMPT_* / MCP_RESOURCE_* variables of a script beside a prompt or resource. */
function sourceVariables(source: ScriptSource, layout: ProjectLayout): Record<string, string> {
  if (source.kind === 'prompt') {
    const rel = source.prompt.path ?? '';
    return {
      MCP_PROMPT_REL_PATH: rel,
      MCP_PROMPT_PATH: rel ? `${layout.promptsDir}/${rel}` : '',
      MCP_PROMPT_METADATA: JSON.stringify(source.prompt),
    };
  }
  if (source.kind === 'resource') {
    const rel = source.resource.path ?? '';
    return {
      MCP_RESOURCE_REL_PATH: rel,
      MCP_RESOURCE_PATH: rel ? `${layout.resourcesDir}/${rel}` : '',
      MCP_RESOURCE_URI: source.resource.uri,
      MCP_RESOURCE_PROVIDER: source.resource.provider,
      MCP_RESOURCE_METADATA: JSON.stringify(source.resource),
    };
  }
  return {};
}

/** How a completion script's failures read: "Completion script timed out after 5s", "Completion cancelled". */
function completionWording(timeoutSecs: number): FailureWording {
  return {
    subject: 'Completion script',
    timeoutSecs,
    limits: { stdout: MAX_OUTPUT_BYTES, stderr: MAX_OUTPUT_BYTES },
    override: (failure) => (failure.kind === 'cancelled' ? 'Completion cancelled' : undefined),
  };
}

/**
 * Runs a completion script (original-behaviour §8.2): cwd = project root, the curated
 * provider environment plus MCP_COMPLETION_*, a timeout; its stdout is one page.
 */
export async function runCompletionScript(
  source: ScriptSource,
  request: CompletionRequest,
  host: CompletionHost,
  signal: AbortSignal,
): Promise<CompletionPage> {
  const timeoutSecs = (source.kind === 'manual' ? source.timeoutSecs : undefined) ?? host.defaultTimeoutSecs;
  const run = await runScript(host, {
    script: source.script,
    args: [],
    extra: {
      MCPBASH_JSON_TOOL: host.jsonTool.name,
      MCPBASH_JSON_TOOL_BIN: host.jsonTool.bin,
      MCP_COMPLETION_NAME: request.name,
      MCP_COMPLETION_ARGS_JSON: JSON.stringify(request.args),
      MCP_COMPLETION_LIMIT: String(request.limit),
      MCP_COMPLETION_OFFSET: String(request.offset),
      MCP_COMPLETION_ARGS_HASH: request.argsHash,
      MCP_COMPLETION_CURSOR: request.scriptCursor ?? '',
      ...sourceVariables(source, host.layout),
    },
    maxStdoutBytes: MAX_OUTPUT_BYTES,
    maxStderrBytes: MAX_OUTPUT_BYTES,
    timeoutMs: timeoutSecs * 1000,
    signal,
  });
  const data = { name: request.name, script: source.key };
  throwIfScriptFailed(run, completionWording(timeoutSecs), 'Completion provider failed', data);
  try {
    return parseCompletionOutput(run.stdout.toString('utf8'), request.limit);
  } catch (error) {
    throw ProjectError.failed((error as Error).message, data);
  }
}
