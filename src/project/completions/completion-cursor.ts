import { ProjectError } from '../project-error.js';

/** What a completion cursor carries (base64url JSON, as in 1.x, plus the script's own cursor). */
export interface CompletionCursor {
  readonly ver: 1;
  readonly kind: 'completion';
  /** The prompt/resource name the cursor belongs to. */
  readonly name: string;
  /** Hash of the completion arguments it was issued for: a later page must ask the same. */
  readonly args: string;
  readonly offset: number;
  /** Which script produced the page (`manual:<path>`, `prompt:<path>`, `builtin:<name>`...). */
  readonly script: string;
  /** A cursor the script returned, handed back to it as MCP_COMPLETION_CURSOR. */
  readonly scriptCursor?: string;
}

export function encodeCompletionCursor(cursor: Omit<CompletionCursor, 'ver' | 'kind'>): string {
  const payload: CompletionCursor = { ver: 1, kind: 'completion', ...cursor };
  return Buffer.from(JSON.stringify(payload)).toString('base64url');
}

function invalid(): ProjectError {
  return ProjectError.invalidRequest(
    'Invalid cursor',
    'The cursor is malformed or belongs to another completion; request the first page again without a cursor',
  );
}

/**
 * Decodes a cursor issued for `name` and these arguments (their hash): a cursor for another
 * completion, or for what the user had typed before, is "Invalid cursor" (-32602), as in 1.x.
 */
export function decodeCompletionCursor(cursor: unknown, name: string, argsHash: string): CompletionCursor {
  if (typeof cursor !== 'string' || cursor === '') throw invalid();
  let payload: Partial<CompletionCursor>;
  try {
    payload = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8')) as Partial<CompletionCursor>;
  } catch {
    throw invalid();
  }
  const valid =
    typeof payload === 'object' &&
    payload !== null &&
    payload.ver === 1 &&
    payload.kind === 'completion' &&
    payload.name === name &&
    payload.args === argsHash &&
    typeof payload.offset === 'number' &&
    Number.isInteger(payload.offset) &&
    payload.offset >= 0 &&
    typeof payload.script === 'string' &&
    (payload.scriptCursor === undefined || typeof payload.scriptCursor === 'string');
  if (!valid) throw invalid();
  return payload as CompletionCursor;
}
