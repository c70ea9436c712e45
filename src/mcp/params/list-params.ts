import type { JsonRpcParams } from '../../jsonrpc/messages.js';
import type { PaginatedParams } from '../../spec/types.js';
import { invalidParam, paramsObject, positiveCount } from './params-reader.js';

const DEFAULT_PAGE_SIZE = 50;
const MAX_PAGE_SIZE = 200;

/** A list request: the cursor to resume from, and the page size. */
export interface ListRequest extends PaginatedParams {
  /** `params.limit` (an mcp-bash extension): default 50, at most 200; invalid or 0 means the default. */
  readonly limit: number;
}

/** tools/list, resources/list, resources/templates/list, prompts/list; `nextCursor` is 1.x's name for the cursor. */
export function parseListParams(params: JsonRpcParams | undefined): ListRequest {
  const request = paramsObject(params);
  const cursor = request.cursor ?? request.nextCursor;
  const limit = Math.min(positiveCount(request.limit) ?? DEFAULT_PAGE_SIZE, MAX_PAGE_SIZE);
  if (cursor === undefined || cursor === null || cursor === '') return { limit };
  if (typeof cursor !== 'string') throw invalidParam('cursor', 'Invalid cursor', { hint: 'cursor must be a string' });
  return { cursor, limit };
}
