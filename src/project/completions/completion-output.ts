/** MCP caps a completion result at 100 values. */
export const MAX_COMPLETION_VALUES = 100;

/** One page of suggestions, whatever produced it. */
export interface CompletionPage {
  readonly values: string[];
  readonly hasMore: boolean;
  /** Where the next page starts, when the producer said. */
  readonly next?: number;
  /** The producer's own cursor for the next page. */
  readonly cursor?: string;
}

function stringArray(value: unknown): string[] {
  if (!Array.isArray(value)) throw new Error('suggestions must be an array of strings');
  if (!value.every((item) => typeof item === 'string')) throw new Error('suggestions must be an array of strings');
  return value as string[];
}

/**
 * A completion script's stdout (original-behaviour §8.2): empty (no suggestions), a JSON
 * array of strings, or `{suggestions, hasMore?, next?, nextCursor?|cursor?}`. The page is
 * cut to `limit`; it has more when the script says so, returned more than `limit`, or gave
 * a cursor. Throws with the reason when the output breaks the contract.
 */
export function parseCompletionOutput(stdout: string, limit: number): CompletionPage {
  const text = stdout.trim();
  if (text === '') return { values: [], hasMore: false };
  let payload: unknown;
  try {
    payload = JSON.parse(text);
  } catch {
    throw new Error('Completion provider emitted invalid JSON');
  }
  let all: string[];
  let flagged = false;
  let next: number | undefined;
  let cursor: string | undefined;
  if (Array.isArray(payload)) {
    all = stringArray(payload);
  } else if (typeof payload === 'object' && payload !== null) {
    const object = payload as Record<string, unknown>;
    all = stringArray(object.suggestions ?? []);
    flagged = object.hasMore === true;
    const rawNext = typeof object.next === 'string' && /^\d+$/.test(object.next) ? Number(object.next) : object.next;
    if (typeof rawNext === 'number' && Number.isInteger(rawNext) && rawNext >= 0) next = rawNext;
    const rawCursor = object.nextCursor ?? object.cursor;
    if (typeof rawCursor === 'string' && rawCursor !== '') cursor = rawCursor;
  } else {
    throw new Error('Completion provider output must be a JSON array or object');
  }
  const values = all.slice(0, limit);
  const hasMore = flagged || all.length > limit || cursor !== undefined;
  return { values, hasMore, ...(next !== undefined ? { next } : {}), ...(cursor !== undefined ? { cursor } : {}) };
}

/**
 * 1.x's built-in generator, used when nothing else completes a name: the trimmed value
 * typed so far (else the name, else "suggestion"), then "<base> snippet" and "<base> example".
 */
export function builtinCompletions(name: string, query: string, offset: number, limit: number): CompletionPage {
  const base = query.trim() || name.trim() || 'suggestion';
  const candidates = [base, `${base} snippet`, `${base} example`];
  const values = candidates.slice(offset, offset + limit);
  const hasMore = offset + limit < candidates.length;
  return { values, hasMore, ...(hasMore ? { next: offset + values.length } : {}) };
}
