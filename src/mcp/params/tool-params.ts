import { isObject } from '../../json/objects.js';
import { RawNumber } from '../../json/raw-number.js';
import type { JsonRpcParams } from '../../jsonrpc/messages.js';
import type { CallToolParams, JsonObject, ProgressToken } from '../../spec/types.js';
import { invalidParam, metaOf, paramsObject } from './params-reader.js';

/** A `tools/call` as the runner takes it. */
export interface ToolCallRequest extends CallToolParams {
  readonly arguments: JsonObject;
  readonly _meta: JsonObject;
  /** `_meta.progressToken` when it is one MCP allows (a string or a number, kept exact). */
  readonly progressToken: ProgressToken | RawNumber | undefined;
  /** `params.timeoutSecs` (an mcp-bash extension, decision D3): this call's timeout. */
  readonly timeoutSecs?: number;
}

function progressTokenOf(meta: JsonObject): ProgressToken | RawNumber | undefined {
  const token = meta.progressToken;
  if (typeof token === 'string' || token instanceof RawNumber) return token;
  return typeof token === 'number' && Number.isFinite(token) ? token : undefined;
}

/**
 * `params.timeoutSecs` in seconds: absent or null is no request timeout (1.x §3.5); a positive
 * integer, also written as digits in a string as tool metadata may (TOOL-CONTRACT.md).
 */
function requestTimeout(value: unknown): number | undefined {
  if (value === undefined || value === null) return undefined;
  const seconds = typeof value === 'string' && /^\d+$/.test(value) ? Number(value) : value;
  if (typeof seconds !== 'number' || !Number.isInteger(seconds) || seconds <= 0)
    throw invalidParam('timeoutSecs', 'timeoutSecs must be a positive integer');
  return seconds;
}

/**
 * `tools/call` (original-behaviour §3.1, steps 1 and 2): a name, arguments that are an
 * object (absent or null: `{}`), and a positive integer `timeoutSecs` when one is given.
 */
export function parseToolCallParams(params: JsonRpcParams | undefined): ToolCallRequest {
  const request = paramsObject(params);
  const { name } = request;
  if (typeof name !== 'string' || name === '') throw invalidParam('name', 'Tool name is required');
  const args = request.arguments === undefined || request.arguments === null ? {} : request.arguments;
  if (!isObject(args))
    throw invalidParam('arguments', 'Invalid arguments JSON', { hint: 'arguments must be a JSON object' });
  const timeoutSecs = requestTimeout(request.timeoutSecs);
  const meta = metaOf(request);
  return {
    name,
    arguments: args,
    _meta: meta,
    progressToken: progressTokenOf(meta),
    ...(timeoutSecs === undefined ? {} : { timeoutSecs }),
  };
}
