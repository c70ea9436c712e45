import { plural } from '../text/plural.js';
import type { SchemaIssue } from './json-schema.js';

/** One reason a tool's arguments do not match its inputSchema, in words a person (or a model) acts on. */
export interface ArgumentProblem {
  /** "missing required argument 'message'", "argument 'n' must be integer". */
  readonly message: string;
  /** The argument concerned, as a dotted path (`opts.level`, `items[0]`); absent for the arguments as a whole. */
  readonly field?: string;
  /** JSON Pointer of the value ajv checked (`/` for the arguments object). */
  readonly path: string;
  /** The JSON Schema keyword that failed. */
  readonly keyword: string;
}

type Params = Record<string, unknown>;

/** `/opts/items/0` -> `opts.items[0]`; empty for the root. */
export function argumentPath(pointer: string): string {
  let out = '';
  for (const raw of pointer.split('/').slice(1)) {
    const token = raw.replace(/~1/g, '/').replace(/~0/g, '~');
    out += /^\d+$/.test(token) && out !== '' ? `[${token}]` : out === '' ? token : `.${token}`;
  }
  return out;
}

function join(parent: string, child: string): string {
  return parent === '' ? child : `${parent}.${child}`;
}

const quoted = (value: unknown) => JSON.stringify(value);

/** The wording of one keyword: the text after "argument 'x'" (or after "the arguments"). */
type Predicate = (params: Params) => string;

const PREDICATES: Record<string, Predicate> = {
  type: (p) => `must be ${String(p.type).split(',').join(' or ')}`,
  enum: (p) => `must be one of ${((p.allowedValues as unknown[]) ?? []).map(quoted).join(', ')}`,
  const: (p) => `must be ${quoted(p.allowedValue)}`,
  minimum: (p) => `must be ${String(p.comparison)} ${String(p.limit)}`,
  maximum: (p) => `must be ${String(p.comparison)} ${String(p.limit)}`,
  exclusiveMinimum: (p) => `must be ${String(p.comparison)} ${String(p.limit)}`,
  exclusiveMaximum: (p) => `must be ${String(p.comparison)} ${String(p.limit)}`,
  multipleOf: (p) => `must be a multiple of ${String(p.multipleOf)}`,
  minLength: (p) => `must be at least ${plural(p.limit, 'character')} long`,
  maxLength: (p) => `must be at most ${plural(p.limit, 'character')} long`,
  pattern: (p) => `must match the pattern ${String(p.pattern)}`,
  format: (p) => `must be a valid ${String(p.format)}`,
  minItems: (p) => `must have at least ${plural(p.limit, 'item')}`,
  maxItems: (p) => `must have at most ${plural(p.limit, 'item')}`,
  items: (p) => `must have at most ${plural(p.limit, 'item')}`,
  additionalItems: (p) => `must have at most ${plural(p.limit, 'item')}`,
  unevaluatedItems: (p) => `must have at most ${plural(p.limit, 'item')}`,
  uniqueItems: (p) => `must not repeat items (items ${String(p.j)} and ${String(p.i)} are equal)`,
  contains: (p) =>
    p.maxContains !== undefined
      ? `must contain at most ${plural(p.maxContains, 'matching item')}`
      : `must contain at least ${plural(p.minContains ?? 1, 'matching item')}`,
  minProperties: (p) => `must have at least ${plural(p.limit, 'property', 'properties')}`,
  maxProperties: (p) => `must have at most ${plural(p.limit, 'property', 'properties')}`,
  anyOf: () => 'must match one of the forms the schema allows',
  oneOf: () => 'must match exactly one of the forms the schema allows',
  not: () => 'must not match the form the schema excludes',
  if: (p) => `must match the schema's "${String(p.failingKeyword)}" branch`,
  'false schema': () => 'is not allowed',
  propertyNames: (p) => `has a property name that is not allowed ("${String(p.propertyName)}")`,
};

function subject(field: string): string {
  return field === '' ? 'the arguments' : `argument '${field}'`;
}

/**
 * ajv's issue in words about the tool's arguments. Every keyword ajv reports has a wording;
 * one we do not know (a custom or future keyword) falls back to ajv's own message.
 */
export function describeArgumentIssue(issue: SchemaIssue): ArgumentProblem {
  const params = (issue.params ?? {}) as Params;
  const base = argumentPath(issue.path);
  const path = issue.path === '' ? '/' : issue.path;
  const at = (field: string, message: string): ArgumentProblem =>
    field === '' ? { message, path, keyword: issue.keyword } : { message, field, path, keyword: issue.keyword };
  switch (issue.keyword) {
    case 'required': {
      const field = join(base, String(params.missingProperty));
      return at(field, `missing required argument '${field}'`);
    }
    case 'additionalProperties':
    case 'unevaluatedProperties': {
      const name = String(params.additionalProperty ?? params.unevaluatedProperty);
      const field = join(base, name);
      return at(field, `unknown argument '${field}': the tool's inputSchema does not declare it`);
    }
    case 'dependentRequired':
    case 'dependencies': {
      const needs = join(base, String(params.missingProperty));
      const given = join(base, String(params.property));
      return at(needs, `argument '${given}' needs argument '${needs}' too`);
    }
  }
  const predicate = PREDICATES[issue.keyword];
  const text = predicate ? predicate(params) : issue.message;
  return at(base, `${subject(base)} ${text}`);
}
