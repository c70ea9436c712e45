import type { JsonRpcParams } from '../../jsonrpc/messages.js';
import type { ReadResourceParams } from '../../spec/types.js';
import { invalidParam, optionalString, paramsObject, positiveSeconds } from './params-reader.js';

/** `resources/read` and `resources/subscribe`: a URI, or a registered name (an mcp-bash extension), or both. */
export interface ResourceRequest extends Partial<ReadResourceParams> {
  readonly name?: string;
  /** `params.timeoutSecs` (original-behaviour §2.13) when it is a positive number; else the method's default. */
  readonly timeoutSecs?: number;
}

/** `resources/unsubscribe`: the URI given to subscribe, or the subscription's id (1.x). */
export interface UnsubscribeRequest {
  readonly uri?: string;
  readonly subscriptionId?: string;
}

/** resources/read and resources/subscribe params: `uri` and/or `name`, strings without NUL. */
export function parseResourceParams(params: JsonRpcParams | undefined): ResourceRequest {
  const request = paramsObject(params);
  const uri = optionalString(request, 'uri');
  const name = optionalString(request, 'name');
  if (uri === undefined && name === undefined) {
    throw invalidParam('uri', 'Resource name or uri required', {
      hint: 'Pass params.uri (a URI from resources/list, or one expanded from a template)',
    });
  }
  // A NUL cannot be passed to a provider (argv); no valid URI contains a raw one.
  for (const [field, value] of [
    ['uri', uri],
    ['name', name],
  ] as const) {
    if (value?.includes('\0')) throw invalidParam(field, 'Invalid resource URI: it contains a NUL character');
  }
  const timeoutSecs = positiveSeconds(request.timeoutSecs);
  return {
    ...(uri !== undefined ? { uri } : {}),
    ...(name !== undefined ? { name } : {}),
    ...(timeoutSecs !== undefined ? { timeoutSecs } : {}),
  };
}

/** resources/unsubscribe params: a non-empty `uri` or `subscriptionId`. */
export function parseUnsubscribeParams(params: JsonRpcParams | undefined): UnsubscribeRequest {
  const request = paramsObject(params);
  const uri = typeof request.uri === 'string' && request.uri !== '' ? request.uri : undefined;
  const id =
    typeof request.subscriptionId === 'string' && request.subscriptionId !== '' ? request.subscriptionId : undefined;
  if (uri === undefined && id === undefined)
    throw invalidParam('uri', 'Resource uri required', {
      hint: 'Pass params.uri, the URI given to resources/subscribe',
    });
  return { ...(uri !== undefined ? { uri } : {}), ...(id !== undefined ? { subscriptionId: id } : {}) };
}
