import { join } from 'node:path';
import { isObject } from '../json/objects.js';
import { ProjectError } from '../project/project-error.js';
import type { PromptDefinition } from '../project/prompts/prompt-definition.js';
import { promptMessagesSchema } from '../schemas/prompt-messages.js';
import type { PromptMessage } from '../spec/types.js';
import { describeIssues, SchemaValidator } from '../validation/json-schema.js';
import { runScript, type ScriptHost, throwIfScriptFailed } from './script-run.js';

/** A prompt script's time when its metadata sets no `timeoutSecs`. */
const DEFAULT_TIMEOUT_SECS = 30;
const MAX_STDERR_BYTES = 1024 * 1024;

const validator = new SchemaValidator();

export interface PromptScriptHost extends ScriptHost {
  readonly jsonTool: { readonly name: string; readonly bin: string };
  /** The most a script may print (MCPBASH_MAX_TOOL_OUTPUT_SIZE, as for templates). */
  readonly maxOutputBytes: number;
}

/** What a prompt script printed: its messages, and a description when it gave one. */
export interface PromptScriptOutput {
  readonly messages: PromptMessage[];
  readonly description?: string;
}

/**
 * A prompt script's stdout (D295): one JSON object `{"messages":[...], "description"?}`, a
 * JSON array of messages, or one message object per line (what `mcp_prompt_message`
 * prints). The messages must be MCP PromptMessages.
 */
function parsePromptOutput(stdout: string): PromptScriptOutput {
  const text = stdout.trim();
  if (text === '') throw new Error('it printed no messages');
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    value = text.split('\n').flatMap((line, index) => {
      if (line.trim() === '') return [];
      try {
        return [JSON.parse(line)];
      } catch {
        throw new Error(`line ${index + 1} of its output is not JSON`);
      }
    });
  }
  const whole = isObject(value) && Array.isArray(value.messages) ? value : undefined;
  const messages = whole ? whole.messages : isObject(value) ? [value] : value;
  const check = validator.check(promptMessagesSchema, messages);
  if (check.valid !== true)
    throw new Error(
      `its output is not prompt messages (${check.valid === false ? describeIssues(check.issues) : check.reason})`,
    );
  return {
    messages: messages as PromptMessage[],
    ...(typeof whole?.description === 'string' ? { description: whole.description } : {}),
  };
}

/**
 * Runs a prompt's script (D295) as completion scripts run: cwd = project root, the curated
 * provider environment plus the prompt's name and arguments (MCP_PROMPT_ARGS_JSON, and
 * MCP_TOOL_ARGS_JSON so the SDK's mcp_args_get reads them), a timeout and the request's
 * cancellation. A failure is -32603 with the script's stderr.
 */
export async function runPromptScript(
  prompt: PromptDefinition,
  script: string,
  args: Readonly<Record<string, string>>,
  host: PromptScriptHost,
  signal: AbortSignal,
): Promise<PromptScriptOutput> {
  const timeoutSecs = prompt.timeoutSecs ?? DEFAULT_TIMEOUT_SECS;
  const argsJson = JSON.stringify(args);
  const run = await runScript(host, {
    script: join(host.layout.promptsDir, script),
    args: [],
    extra: {
      MCPBASH_JSON_TOOL: host.jsonTool.name,
      MCPBASH_JSON_TOOL_BIN: host.jsonTool.bin,
      MCP_PROMPT_NAME: prompt.name,
      MCP_PROMPT_ARGS_JSON: argsJson,
      MCP_TOOL_ARGS_JSON: argsJson,
      MCP_PROMPT_METADATA: JSON.stringify(prompt),
    },
    maxStdoutBytes: host.maxOutputBytes,
    maxStderrBytes: MAX_STDERR_BYTES,
    timeoutMs: timeoutSecs * 1000,
    signal,
  });
  const data = { prompt: prompt.name, script };
  const subject = `Prompt script ${script}`;
  const limits = { stdout: host.maxOutputBytes, stderr: MAX_STDERR_BYTES, setting: 'MCPBASH_MAX_TOOL_OUTPUT_SIZE' };
  throwIfScriptFailed(run, { subject, timeoutSecs, limits }, `${subject} failed`, data);
  try {
    return parsePromptOutput(run.stdout.toString('utf8'));
  } catch (error) {
    throw ProjectError.failed(`${subject}: ${(error as Error).message}`, data);
  }
}
