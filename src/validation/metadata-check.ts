import type { MetaFormat } from '../schemas/meta-files.js';
import { type SchemaIssue, SchemaValidator } from './json-schema.js';

/** One problem of a metadata value, and what it costs: the entry (`reject`) or only the value (`ignore`). */
export interface MetadataProblem extends SchemaIssue {
  readonly severity: 'reject' | 'ignore';
}

/** What checking a metadata value against its format found, and the value the server can use. */
export interface MetadataScreen {
  readonly problems: readonly MetadataProblem[];
  /** The first rejecting problem's sentence, when the entry is unusable. */
  readonly rejected: string | undefined;
  /** The value without what the server ignores (undefined when rejected). */
  readonly value: Record<string, unknown> | undefined;
  /** One sentence per ignored value: `timeoutSecs must be a positive integer; ignored`. */
  readonly warnings: readonly string[];
}

const validator = new SchemaValidator();

function rejects(format: MetaFormat, issue: SchemaIssue): boolean {
  if (issue.path === '') return true;
  return format.rejectAt.some((rule) => {
    const [pointer = '', keyword] = rule.split(' ');
    const under = issue.path === pointer || issue.path.startsWith(`${pointer}/`) || pointer === '';
    return under && (keyword === undefined || issue.keyword === keyword);
  });
}

/** Every problem of `value` against the format's schema (compiled once), with its severity. */
export function metadataProblems(format: MetaFormat, value: unknown): MetadataProblem[] {
  const check = validator.check(format.schema, value);
  if (check.valid === true) return [];
  if (check.valid === 'unchecked') throw new Error(`internal schema does not compile: ${check.reason}`);
  return check.issues.map((issue) => ({ ...issue, severity: rejects(format, issue) ? 'reject' : 'ignore' }));
}

/** The value at a JSON Pointer of `root` (undefined where the path does not exist). */
export function valueAt(root: unknown, pointer: string): unknown {
  let current = root;
  for (const token of pointer.split('/').slice(1)) {
    if (typeof current !== 'object' || current === null) return undefined;
    current = (current as Record<string, unknown>)[token];
  }
  return current;
}

/** The server's words for a problem: the format's sentence for the pointer, else the schema's. */
function problemSentence(format: MetaFormat, problem: SchemaIssue, value: unknown): string {
  const sentence = format.sentences?.[problem.path];
  if (sentence) return sentence(valueAt(value, problem.path));
  return `${problem.path === '' ? '(root)' : problem.path.slice(1).replaceAll('/', '.')} ${problem.message}`;
}

/**
 * Where an ignored problem's value is dropped: the whole field for `dropWhole` fields, the
 * key itself for a key the format does not allow, else exactly there.
 */
function dropPointer(format: MetaFormat, problem: SchemaIssue): string {
  const extra = problem.keyword === 'additionalProperties' ? problem.params?.additionalProperty : undefined;
  const path = typeof extra === 'string' ? `${problem.path}/${extra}` : problem.path;
  return format.dropWhole?.find((whole) => path === whole || path.startsWith(`${whole}/`)) ?? path;
}

/** A copy of `value` without what is at the pointers (array items removed, the others deleted). */
function without(value: Record<string, unknown>, pointers: readonly string[]): Record<string, unknown> {
  const copy = structuredClone(value);
  // Deepest and last first, so removing an array item does not shift one still to remove.
  const ordered = [...new Set(pointers)].sort((a, b) => b.localeCompare(a, 'en', { numeric: true }));
  for (const pointer of ordered) {
    const tokens = pointer.split('/').slice(1);
    const last = tokens.pop() as string;
    const parent = valueAt(copy, tokens.length === 0 ? '' : `/${tokens.join('/')}`);
    if (Array.isArray(parent)) parent.splice(Number(last), 1);
    else if (typeof parent === 'object' && parent !== null) delete (parent as Record<string, unknown>)[last];
  }
  return copy;
}

/**
 * Discovery's side of the one definition: the problems of a metadata value, the reason it
 * cannot be used (a rejecting problem), or the value without what the server ignores and a
 * warning for each ignored value. Validate reports the same problems (validate's
 * checkSchema): rejecting ones as errors, ignored ones as warnings.
 */
export function screenMetadata(format: MetaFormat, value: Record<string, unknown>): MetadataScreen {
  const problems = metadataProblems(format, value);
  if (problems.length === 0) return { problems, rejected: undefined, value, warnings: [] };
  const rejecting = problems.find((problem) => problem.severity === 'reject');
  if (rejecting)
    return { problems, rejected: problemSentence(format, rejecting, value), value: undefined, warnings: [] };
  const drops = problems.map((problem) => dropPointer(format, problem));
  const warnings = [...new Set(drops)].map((pointer) => {
    const problem = problems.find((candidate) => dropPointer(format, candidate) === pointer) as MetadataProblem;
    const sentence = format.sentences?.[pointer]
      ? problemSentence(format, { ...problem, path: pointer }, value)
      : problem.keyword === 'additionalProperties'
        ? `${pointer.slice(1).replaceAll('/', '.')} is not a known field`
        : problemSentence(format, problem, value);
    return `${sentence}; ignored`;
  });
  return { problems, rejected: undefined, value: without(value, drops), warnings };
}
