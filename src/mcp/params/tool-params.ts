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
 * `tools/call` (original-behaviour §3.1, steps 1 and 2): a name, arguments that are an
 * object (absent or null: `{}`), and a positive integer `timeoutSecs` when one is given.
 */
export function parseToolCallParams(params: JsonRpcParams | undefined): ToolCallRequest {
  const request = paramsObject(params);
  const { name, timeoutSecs } = request;
  if (typeof name !== 'string' || name === '') throw invalidParam('name', 'Tool name is required');
  const args = request.arguments === undefined || request.arguments === null ? {} : request.arguments;
  if (!isObject(args))
    throw invalidParam('arguments', 'Invalid arguments JSON', { hint: 'arguments must be a JSON object' });
  if (
    timeoutSecs !== undefined &&
    (typeof timeoutSecs !== 'number' || !Number.isInteger(timeoutSecs) || timeoutSecs <= 0)
  )
    throw invalidParam('timeoutSecs', 'timeoutSecs must be a positive integer');
  const meta = metaOf(request);
  return {
    name,
    arguments: args,
    _meta: meta,
    progressToken: progressTokenOf(meta),
    ...(typeof timeoutSecs === 'number' ? { timeoutSecs } : {}),
  };
}
