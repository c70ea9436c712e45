import t from 'tap';
import { argumentPath, describeArgumentIssue } from '../../../src/validation/argument-words.js';
import { SchemaValidator } from '../../../src/validation/json-schema.js';

const validator = new SchemaValidator();

/** The words for every issue of `value` against `schema`. */
function words(schema: object, value: unknown) {
  const check = validator.check(schema, value);
  if (check.valid !== false) throw new Error(`expected ${JSON.stringify(value)} to fail`);
  return check.issues.map(describeArgumentIssue);
}

const object = (properties: object, extra: object = {}) => ({ type: 'object', properties, ...extra });

t.test('argument paths read as dotted names with indexes', async (t) => {
  t.equal(argumentPath(''), '');
  t.equal(argumentPath('/n'), 'n');
  t.equal(argumentPath('/opts/level'), 'opts.level');
  t.equal(argumentPath('/items/0/name'), 'items[0].name');
  t.equal(argumentPath('/a~1b/c~0d'), 'a/b.c~d');
});

t.test('the issue examples: missing required argument, argument must be integer', async (t) => {
  t.same(words(object({ message: { type: 'string' } }, { required: ['message'] }), {}), [
    { message: "missing required argument 'message'", field: 'message', path: '/', keyword: 'required' },
  ]);
  t.same(words(object({ n: { type: 'integer' } }), { n: 'x' }), [
    { message: "argument 'n' must be integer", field: 'n', path: '/n', keyword: 'type' },
  ]);
});

// One case per keyword ajv reports for 2020-12 and draft-07 schemas; none may fall back to ajv's text.
const cases: Array<[string, object, unknown, RegExp]> = [
  ['type (several)', object({ n: { type: ['string', 'null'] } }), { n: 1 }, /^argument 'n' must be string or null$/],
  ['enum', object({ c: { enum: ['red', 'blue'] } }), { c: 'x' }, /^argument 'c' must be one of "red", "blue"$/],
  ['const', object({ v: { const: 2 } }), { v: 3 }, /^argument 'v' must be 2$/],
  ['minimum', object({ n: { minimum: 0 } }), { n: -1 }, /^argument 'n' must be >= 0$/],
  ['maximum', object({ n: { maximum: 9 } }), { n: 10 }, /^argument 'n' must be <= 9$/],
  ['exclusiveMinimum', object({ n: { exclusiveMinimum: 0 } }), { n: 0 }, /^argument 'n' must be > 0$/],
  ['exclusiveMaximum', object({ n: { exclusiveMaximum: 1 } }), { n: 1 }, /^argument 'n' must be < 1$/],
  ['multipleOf', object({ n: { multipleOf: 5 } }), { n: 7 }, /^argument 'n' must be a multiple of 5$/],
  ['minLength', object({ s: { minLength: 1 } }), { s: '' }, /^argument 's' must be at least 1 character long$/],
  ['maxLength', object({ s: { maxLength: 2 } }), { s: 'abc' }, /^argument 's' must be at most 2 characters long$/],
  ['pattern', object({ s: { pattern: '^a' } }), { s: 'b' }, /^argument 's' must match the pattern \^a$/],
  ['minItems', object({ l: { minItems: 2 } }), { l: [1] }, /^argument 'l' must have at least 2 items$/],
  ['maxItems', object({ l: { maxItems: 1 } }), { l: [1, 2] }, /^argument 'l' must have at most 1 item$/],
  ['uniqueItems', object({ l: { uniqueItems: true } }), { l: [1, 1] }, /^argument 'l' must not repeat items/],
  [
    'contains',
    object({ l: { contains: { const: 1 } } }),
    { l: [2] },
    /^argument 'l' must contain at least 1 matching item$/,
  ],
  ['maxContains', object({ l: { contains: { const: 1 }, maxContains: 1 } }), { l: [1, 1] }, /at most 1 matching item$/],
  [
    'items: false (2020-12)',
    object({ l: { prefixItems: [{}], items: false } }),
    { l: [1, 2] },
    /^argument 'l' must have at most 1 item$/,
  ],
  ['additionalProperties', object({}, { additionalProperties: false }), { x: 1 }, /^unknown argument 'x'/],
  ['unevaluatedProperties', object({}, { unevaluatedProperties: false }), { x: 1 }, /^unknown argument 'x'/],
  [
    'unevaluatedItems',
    object({ l: { prefixItems: [{}], unevaluatedItems: false } }),
    { l: [1, 2] },
    /^argument 'l' must have at most 1 item$/,
  ],
  ['minProperties', object({}, { minProperties: 1 }), {}, /^the arguments must have at least 1 property$/],
  ['maxProperties', object({}, { maxProperties: 1 }), { a: 1, b: 2 }, /^the arguments must have at most 1 property$/],
  [
    'dependentRequired',
    object({}, { dependentRequired: { a: ['b'] } }),
    { a: 1 },
    /^argument 'a' needs argument 'b' too$/,
  ],
  [
    'propertyNames',
    object({}, { propertyNames: { maxLength: 2 } }),
    { abc: 1 },
    /has a property name that is not allowed \("abc"\)/,
  ],
  [
    'anyOf',
    object({ v: { anyOf: [{ type: 'string' }, { type: 'integer' }] } }),
    { v: true },
    /^argument 'v' must match one of the forms/,
  ],
  [
    'oneOf',
    object({ v: { oneOf: [{ type: 'number' }, { type: 'integer' }] } }),
    { v: 1 },
    /^argument 'v' must match exactly one/,
  ],
  ['not', object({ v: { not: { type: 'string' } } }), { v: 'x' }, /^argument 'v' must not match/],
  [
    'if/then',
    // JSON Schema's if/then (parsed from text: a literal `then` key reads as a thenable to linters).
    object({ v: JSON.parse('{"if":{"type":"string"},"then":{"minLength":2}}') }),
    { v: 'a' },
    /^argument 'v' must match the schema's "then" branch$/,
  ],
  ['false schema', object({ v: false }), { v: 1 }, /^argument 'v' is not allowed$/],
  [
    'nested required',
    object({ opts: object({}, { required: ['level'] }) }),
    { opts: {} },
    /^missing required argument 'opts\.level'$/,
  ],
  ['array item', object({ l: { items: { type: 'string' } } }), { l: ['a', 2] }, /^argument 'l\[1\]' must be string$/],
];

t.test('every keyword ajv reports has words', async (t) => {
  for (const [name, schema, value, expected] of cases) {
    const problems = words(schema, value);
    t.ok(
      problems.some((problem) => expected.test(problem.message)),
      `${name}: ${problems.map((problem) => problem.message).join(' | ')}`,
    );
  }
});

t.test('draft-07 keywords: dependencies, additionalItems', async (t) => {
  const draft7 = { $schema: 'http://json-schema.org/draft-07/schema#' };
  t.match(words({ ...draft7, type: 'object', dependencies: { a: ['b'] } }, { a: 1 })[0], {
    message: "argument 'a' needs argument 'b' too",
    field: 'b',
  });
  t.match(words({ ...draft7, ...object({ l: { items: [{}], additionalItems: false } }) }, { l: [1, 2] })[0], {
    message: "argument 'l' must have at most 1 item",
    field: 'l',
  });
});

t.test('a keyword we do not know falls back to the validator message, still naming the argument', async (t) => {
  t.same(describeArgumentIssue({ path: '/x', message: 'must be shiny', keyword: 'x-shiny', params: {} }), {
    message: "argument 'x' must be shiny",
    field: 'x',
    path: '/x',
    keyword: 'x-shiny',
  });
});
