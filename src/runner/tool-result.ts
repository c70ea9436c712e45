import { isObject } from '../json/objects.js';
import {
  exitStatus,
  failureMessage,
  type ProcessFailure,
  type ProcessResult,
  processFailure,
} from '../process/process-result.js';
import type { ToolDefinition } from '../project/tools/tool-definition.js';
import { normalizeUiMeta } from '../project/ui/tool-ui-meta.js';
import { callToolResultSchema } from '../schemas/call-tool-result.js';
import { ErrorCode } from '../spec/error-codes.js';
import { RpcError } from '../spec/rpc-error.js';
import type { CallToolResult, ContentBlock, EmbeddedResource, JsonObject, TextContent } from '../spec/types.js';
import { describeIssues, type SchemaValidator } from '../validation/json-schema.js';

/** Why a tool ran out of time (the `reason` of the timeout result). */
export type TimeoutReason = 'fixed' | 'idle' | 'max_exceeded';

export interface TimeoutPolicy {
  readonly timeoutSecs: number;
  /** Idle mode: the timeout restarts on every progress activity. */
  readonly progressExtendsTimeout: boolean;
  /** Idle mode's hard cap. */
  readonly maxTimeoutSecs: number;
}

export interface ResultInputs {
  readonly tool: ToolDefinition;
  readonly run: ProcessResult;
  /** What the tool wrote to MCP_TOOL_ERROR_FILE (mcp_fail). */
  readonly errorFileText: string | undefined;
  readonly timedOut: { readonly reason: TimeoutReason; readonly policy: TimeoutPolicy } | undefined;
  readonly maxStdoutBytes: number;
  readonly maxStderrBytes: number;
  readonly stderrCapture: boolean;
  /** Attachments, and a text block for each one left out (embedded-resources.ts). */
  readonly embedded: readonly (EmbeddedResource | TextContent)[];
  readonly validator: SchemaValidator;
  /** The last line of the tool's xtrace (MCPBASH_TRACE_TOOLS), shown on failed results. */
  readonly traceLine?: string;
  /** Says why a result the tool printed is not passed through (the server's log, a warning). */
  readonly warn: (message: string) => void;
}

function parseJson(text: string): { ok: true; value: unknown } | { ok: false } {
  try {
    return { ok: true, value: JSON.parse(text) };
  } catch {
    return { ok: false };
  }
}

/** `_meta` of a result: the exit status, the stderr tail, and for failures the last trace line. */
function resultMeta(inputs: ResultInputs, exitCode: number, failed = false): JsonObject {
  const meta: JsonObject = { exitCode };
  if (inputs.stderrCapture && inputs.run.stderrTail !== '') meta.stderr = inputs.run.stderrTail;
  if (failed && inputs.traceLine !== undefined) meta.traceLine = inputs.traceLine;
  return meta;
}

/**
 * The `{code, message, data}` mcp_fail writes: a JSON-RPC error with exactly that code. Its
 * data is what the tool wrote, under the output cap like its stdout (D285): larger data is
 * dropped, the code and message kept.
 */
function errorFromErrorFile(text: string, inputs: ResultInputs): RpcError {
  const parsed = parseJson(text);
  const named =
    parsed.ok &&
    isObject(parsed.value) &&
    Number.isInteger(parsed.value.code) &&
    typeof parsed.value.message === 'string'
      ? parsed.value
      : undefined;
  const code = named ? (named.code as number) : ErrorCode.InternalError;
  const message = named ? (named.message as string) : 'Tool failed';
  const data = named ? (named.data ?? null) : text;
  const size = Buffer.byteLength(typeof data === 'string' ? data : JSON.stringify(data));
  if (size <= inputs.maxStdoutBytes) return new RpcError(code, message, data);
  inputs.warn(
    `${inputs.tool.name}: the error data of ${size} bytes is over ${inputs.maxStdoutBytes} ` +
      '(MCPBASH_MAX_TOOL_OUTPUT_SIZE); its data was dropped',
  );
  return new RpcError(code, message);
}

/**
 * The official client validates structuredContent against the outputSchema even on error
 * results; an envelope the schema rejects is left out so the error itself reaches the model.
 */
function keepStructuredIfValid(result: CallToolResult, inputs: ResultInputs): CallToolResult {
  if (!result.structuredContent || !inputs.tool.outputSchema) return result;
  const check = inputs.validator.check(inputs.tool.outputSchema, result.structuredContent);
  if (check.valid === false) {
    const { structuredContent: _dropped, ...rest } = result;
    return rest;
  }
  return result;
}

function timeoutResult(inputs: ResultInputs, exitCode: number): CallToolResult {
  const { reason, policy } = inputs.timedOut as NonNullable<ResultInputs['timedOut']>;
  const { tool } = inputs;
  let message =
    reason === 'max_exceeded'
      ? `Tool exceeded maximum runtime of ${policy.maxTimeoutSecs}s`
      : `Tool timed out after ${policy.timeoutSecs}s${reason === 'idle' ? ' (no progress reported)' : ''}`;
  if (tool.timeoutHint) message += `\n\nSuggestion: ${tool.timeoutHint}`;
  const error: JsonObject = { type: 'timeout', message, timeoutSecs: policy.timeoutSecs, reason, exitCode };
  if (policy.progressExtendsTimeout)
    Object.assign(error, { progressExtendsTimeout: true, maxTimeoutSecs: policy.maxTimeoutSecs });
  if (tool.timeoutHint) error.hint = tool.timeoutHint;
  return keepStructuredIfValid(
    {
      content: [{ type: 'text', text: message }],
      isError: true,
      structuredContent: { success: false, error },
      _meta: resultMeta(inputs, exitCode, true),
    },
    inputs,
  );
}

/**
 * A stdout that is itself a CallToolResult (`content` array plus `isError`) and a valid one:
 * clients validate results, so one that is not (an unknown content type, `"isError":"yes"`)
 * is treated as plain output, with a warning naming its first problem (D268).
 */
function asCallToolResult(value: unknown, inputs: ResultInputs): CallToolResult | undefined {
  if (!isObject(value) || !Array.isArray(value.content) || !('isError' in value)) return undefined;
  const check = inputs.validator.check(callToolResultSchema, value);
  if (check.valid === false) {
    const [first] = check.issues;
    inputs.warn(
      `${inputs.tool.name}: its output looks like a CallToolResult but is not one ` +
        `(${first ? describeIssues([first]) : 'invalid'}); sent as plain output`,
    );
    return undefined;
  }
  return value as unknown as CallToolResult;
}

/** A passthrough result with our `_meta` added (1.x's `ui/resourceUri` moved to `ui.resourceUri`). */
function withMeta(
  result: CallToolResult,
  meta: JsonObject,
  embedded: readonly (EmbeddedResource | TextContent)[],
): CallToolResult {
  return {
    ...result,
    content: [...result.content, ...embedded],
    _meta: { ...normalizeUiMeta(isObject(result._meta) ? result._meta : {}), ...meta },
  };
}

/** Decision D1: a non-zero exit is a failed tool the model can see, not a protocol error. */
function failedToolResult(inputs: ResultInputs, stdout: string, exitCode: number): CallToolResult {
  const parsed = stdout.trim() === '' ? { ok: false as const } : parseJson(stdout);
  if (parsed.ok) {
    const value = parsed.value;
    // 1.x tools report errors by printing what mcp_fail prints: keep that a JSON-RPC error.
    if (
      isObject(value) &&
      Number.isInteger(value.code) &&
      typeof value.message === 'string' &&
      Object.keys(value).every((key) => ['code', 'message', 'data'].includes(key))
    ) {
      throw new RpcError(value.code as number, value.message, value.data ?? null);
    }
    const envelope = asCallToolResult(value, inputs);
    if (envelope)
      return keepStructuredIfValid(
        withMeta({ ...envelope, isError: true }, resultMeta(inputs, exitCode, true), inputs.embedded),
        inputs,
      );
  }
  const detail = inputs.run.stderrHead || stdout.trim().split('\n')[0]?.slice(0, 500) || '';
  const text = `Tool '${inputs.tool.name}' failed with exit status ${exitCode}${detail ? `: ${detail}` : ''}`;
  return {
    content: [{ type: 'text', text }, ...inputs.embedded],
    isError: true,
    _meta: resultMeta(inputs, exitCode, true),
  };
}

function checkOutputSchema(inputs: ResultInputs, stdout: string, structured: unknown): void {
  const schema = inputs.tool.outputSchema;
  if (!schema) return;
  // The usual cause is a scaffolded tool (its metadata declares an outputSchema) edited to print text.
  const data = {
    tool: inputs.tool.name,
    hint:
      'its metadata declares an outputSchema, so it must print a JSON object that matches it ' +
      '(mcp_emit_json prints one; mcp_result_success wraps its data in {success, result}); ' +
      'without outputSchema it may print plain text',
  };
  if (stdout.trim() === '') throw RpcError.internal('Tool output is empty for declared outputSchema', data);
  if (structured === undefined)
    throw RpcError.internal('Tool output is not valid JSON for declared outputSchema', data);
  const check = inputs.validator.check(schema, structured);
  if (check.valid === false) {
    throw RpcError.internal(`Tool output does not satisfy outputSchema: ${describeIssues(check.issues)}`, {
      tool: inputs.tool.name,
      errors: check.issues.map(({ path, message }) => ({ path: path === '' ? '/' : path, message })),
    });
  }
}

/**
 * A run that did not end on its own (original-behaviour §2.11): "Tool output exceeded N
 * bytes" and "Tool stderr exceeded N bytes" (never a partial payload), "Tool 'x' could not
 * be started: ...". A cancelled call never gets here (its response is suppressed).
 */
function runFailure(failure: ProcessFailure, inputs: ResultInputs): RpcError {
  const { tool } = inputs;
  if (failure.kind === 'overflow') {
    const limit = failure.stream === 'stdout' ? inputs.maxStdoutBytes : inputs.maxStderrBytes;
    const what = failure.stream === 'stdout' ? 'output' : 'stderr';
    return RpcError.internal(`Tool ${what} exceeded ${limit} bytes`, { tool: tool.name, limit });
  }
  return RpcError.internal(failureMessage(failure, { subject: `Tool '${tool.name}'` }));
}

/**
 * Builds the tools/call answer from a finished run (original-behaviour §3.6 with D1 and
 * D3): mcp_fail's error file first; then output caps (never a partial payload); timeouts;
 * failures; then success as a passthrough CallToolResult, JSON (structuredContent), or text.
 */
export function buildToolResult(inputs: ResultInputs): CallToolResult {
  const { run } = inputs;
  if (inputs.errorFileText !== undefined && inputs.errorFileText.trim() !== '')
    throw errorFromErrorFile(inputs.errorFileText, inputs);
  const failure = processFailure(run);
  const exitCode = exitStatus(run);
  // A timeout is a result the model sees (D3); so is a non-zero exit (D1), below.
  if (inputs.timedOut) return timeoutResult(inputs, exitCode);
  if (failure && failure.kind !== 'exit') throw runFailure(failure, inputs);
  const stdout = run.stdout.toString('utf8');
  if (exitCode !== 0) return failedToolResult(inputs, stdout, exitCode);

  const parsed = stdout.trim() === '' ? { ok: false as const } : parseJson(stdout);
  const meta = resultMeta(inputs, 0);
  const envelope = parsed.ok ? asCallToolResult(parsed.value, inputs) : undefined;
  if (envelope) {
    if (!envelope.isError) checkOutputSchema(inputs, stdout, envelope.structuredContent ?? {});
    return keepStructuredIfValid(withMeta(envelope, meta, inputs.embedded), inputs);
  }
  checkOutputSchema(inputs, stdout, parsed.ok ? parsed.value : undefined);
  const content: ContentBlock[] = [{ type: 'text', text: stdout }, ...inputs.embedded];
  const result: CallToolResult = { content, isError: false, _meta: meta };
  // structuredContent must be an object (MCP schema); other JSON values stay text only.
  if (parsed.ok && isObject(parsed.value)) result.structuredContent = parsed.value;
  return result;
}
