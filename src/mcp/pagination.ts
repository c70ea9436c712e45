import type { JsonRpcParams } from '../jsonrpc/messages.js';
import { RpcError } from '../spec/rpc-error.js';
import type { PaginatedParams } from '../spec/types.js';
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

/** The collections list methods page through; a cursor is only valid for its own. */
export type Collection = 'tools' | 'resources' | 'resourceTemplates' | 'prompts';

interface CursorPayload {
  ver: 1;
  collection: Collection;
  offset: number;
  hash: string;
  timestamp: string;
}

export interface Page<T> {
  readonly items: T[];
  readonly nextCursor: string | undefined;
  readonly total: number;
}

/** An opaque cursor: base64url (no padding) of `{ver, collection, offset, hash, timestamp}`. */
function encodeCursor(collection: Collection, offset: number, hash: string): string {
  const payload: CursorPayload = { ver: 1, collection, offset, hash, timestamp: new Date().toISOString() };
  return Buffer.from(JSON.stringify(payload)).toString('base64url');
}

/**
 * The offset a cursor points at. A cursor that does not decode, belongs to another
 * collection, or was issued for a list that has changed since (hash) is rejected.
 */
function decodeCursor(cursor: string, collection: Collection, hash: string): number {
  const payload = cursorPayload(cursor);
  const valid =
    payload !== undefined &&
    payload.ver === 1 &&
    payload.collection === collection &&
    Number.isInteger(payload.offset) &&
    (payload.offset as number) >= 0 &&
    typeof payload.hash === 'string';
  if (!valid)
    throw RpcError.invalidParams(
      'Invalid cursor',
      'The cursor is malformed or belongs to another list; request the list again without a cursor',
    );
  if (payload?.hash !== hash) {
    throw RpcError.invalidParams(
      'Invalid cursor',
      'The list changed since this cursor was issued; request it again without a cursor',
    );
  }
  return payload.offset as number;
}

/** The object a cursor holds, or undefined when it is not base64url of a JSON object. */
function cursorPayload(cursor: string): Partial<CursorPayload> | undefined {
  let value: unknown;
  try {
    value = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
  } catch {
    return undefined;
  }
  // JSON null, numbers, strings and arrays are not cursors we issued.
  return typeof value === 'object' && value !== null && !Array.isArray(value)
    ? (value as Partial<CursorPayload>)
    : undefined;
}

/** One page of a list in its deterministic order. */
export function paginate<T>(items: readonly T[], collection: Collection, hash: string, request: ListRequest): Page<T> {
  const offset = request.cursor === undefined ? 0 : decodeCursor(request.cursor, collection, hash);
  const size = request.limit;
  const end = Math.min(offset + size, items.length);
  return {
    items: items.slice(offset, end),
    nextCursor: end < items.length ? encodeCursor(collection, end, hash) : undefined,
    total: items.length,
  };
}

/** The list result shape: the items under their key, `nextCursor` only when more, the total in `_meta`. */
export function listResult<K extends string, T>(
  key: K,
  page: Page<T>,
): Record<K, T[]> & { nextCursor?: string; _meta: Record<string, unknown> } {
  const result = { [key]: page.items, _meta: { 'mcpbash/total': page.total } } as Record<K, T[]> & {
    nextCursor?: string;
    _meta: Record<string, unknown>;
  };
  if (page.nextCursor !== undefined) result.nextCursor = page.nextCursor;
  return result;
}

/** One page of `items` as its list result, each item of the page (only) shown by `toListed`. */
export function listPage<T, U>(
  collection: Collection,
  items: readonly T[],
  hash: string,
  request: ListRequest,
  toListed: (item: T) => U,
): ReturnType<typeof listResult<Collection, U>> {
  const page = paginate(items, collection, hash, request);
  return listResult(collection, { ...page, items: page.items.map(toListed) });
}
