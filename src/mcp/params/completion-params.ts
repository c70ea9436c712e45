import { asObject } from '../../json/objects.js';
import type { JsonRpcParams } from '../../jsonrpc/messages.js';
import { MAX_COMPLETION_VALUES } from '../../project/completions/completion-output.js';
import type { CompleteParams, CompletionReference, JsonObject } from '../../spec/types.js';
import { invalidParam, nonEmptyString, paramsObject, positiveCount } from './params-reader.js';

/** 1.x's page size when the client sets no `limit` (an mcp-bash extension). */
const DEFAULT_LIMIT = 5;

const REF_HINT = 'Use {"type":"ref/prompt","name":...} or {"type":"ref/resource","uri":...}';

/** A `completion/complete` (original-behaviour §8.1). */
export interface CompletionRequest extends Omit<CompleteParams, 'context'> {
  /** The ref as sent (completion scripts see it whole in MCP_COMPLETION_ARGS_JSON). */
  readonly rawRef: JsonObject;
  readonly context: { arguments: JsonObject };
  /** `cursor` (or 1.x's `nextCursor`) as sent; decoded against the name and arguments later. */
  readonly cursor: unknown;
  /** `params.limit`: default 5, at most 100; invalid or 0 means the default. */
  readonly limit: number;
}

function referenceOf(value: unknown): CompletionReference {
  const ref = asObject(value);
  if (typeof ref.type !== 'string')
    throw invalidParam('ref', 'Completion ref is required', {
      hint: 'Pass params.ref: {"type":"ref/prompt","name":...} or {"type":"ref/resource","uri":...}',
    });
  const name = ref.type === 'ref/prompt' ? nonEmptyString(ref.name) : undefined;
  if (name !== undefined) return { type: 'ref/prompt', name };
  const uri = ref.type === 'ref/resource' ? nonEmptyString(ref.uri) : undefined;
  if (uri !== undefined) return { type: 'ref/resource', uri };
  throw invalidParam('ref', 'Completion ref is invalid', { hint: REF_HINT });
}

/** `completion/complete`: a ref, the argument being completed (a name, the value typed so far), paging. */
export function parseCompletionParams(params: JsonRpcParams | undefined): CompletionRequest {
  const request = paramsObject(params);
  const ref = referenceOf(request.ref);
  const argument = asObject(request.argument);
  const name = nonEmptyString(argument.name);
  if (name === undefined)
    throw invalidParam('argument.name', 'Completion argument name is required', {
      hint: 'Pass params.argument: {"name":..., "value":...}',
    });
  const cursor = request.cursor ?? request.nextCursor;
  return {
    ref,
    rawRef: asObject(request.ref),
    argument: { name, value: typeof argument.value === 'string' ? argument.value : '' },
    context: { arguments: asObject(asObject(request.context).arguments) },
    cursor: cursor === null ? undefined : cursor,
    limit: Math.min(positiveCount(request.limit) ?? DEFAULT_LIMIT, MAX_COMPLETION_VALUES),
  };
}
