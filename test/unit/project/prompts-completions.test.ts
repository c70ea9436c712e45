import t from 'tap';
import { parsePromptGetParams } from '../../../src/mcp/handlers/prompts.js';
import { decodeCompletionCursor, encodeCompletionCursor } from '../../../src/project/completions/completion-cursor.js';
import { builtinCompletions, parseCompletionOutput } from '../../../src/project/completions/completion-output.js';
import { normalizePrompt, promptArguments } from '../../../src/project/prompts/prompt-definition.js';
import { renderPrompt as renderTemplate } from '../../../src/project/prompts/prompt-render.js';

const schema = { type: 'object', properties: { name: { type: 'string' }, n: { type: 'number' } }, required: ['name'] };

/** prompts/get as the server runs it: the params parsed, then the template rendered. */
function renderPrompt(name: string, template: string, schema: Record<string, unknown>, args: unknown): string {
  return renderTemplate(name, template, schema, parsePromptGetParams({ name, arguments: args }).values);
}

t.test('{{var}} placeholders are replaced in one pass; unknown ones and ${var} stay', async (t) => {
  t.equal(
    renderPrompt('p', 'Hi {{name}} {{n}} {{other}} ${name} {{ name }}\n\n', schema, { name: 'A {{n}}', n: 2 }),
    'Hi A {{n}} 2 {{other}} ${name} {{ name }}\n\n',
  );
  t.equal(
    renderPrompt('p', '{{name}}', schema, { name: 'line 1\nline 2' }),
    'line 1\nline 2',
    'multi-line values are kept',
  );
  t.equal(
    renderPrompt('p', '{{name}} {{n}}', schema, { name: true, n: 1.5 }),
    'true 1.5',
    'booleans and numbers are rendered',
  );
});

t.test('missing required arguments and non-scalar values are invalid params', async (t) => {
  t.throws(() => renderPrompt('p', '', schema, {}), {
    kind: 'invalid-request',
    message: 'Missing required argument "name" for prompt "p"',
  });
  t.throws(
    () => renderPrompt('p', '', schema, { name: null }),
    { kind: 'invalid-request', message: /Missing required/ },
    'null counts as missing',
  );
  t.throws(() => renderPrompt('p', '', schema, { name: 'x', n: [1] }), {
    code: -32602,
    message: /Argument "n" of prompt "p" must be a string/,
  });
  t.throws(() => renderPrompt('p', '', schema, 'x'), { code: -32602 });
});

t.test('prompt metadata: list-form arguments become a schema; roles map to user/assistant', async (t) => {
  const context = { iconBase: '/tmp', owner: 'x', defaultName: 'd' };
  const listForm = normalizePrompt(
    { arguments: [{ name: 'a', description: 'A', required: true }, { name: 'b' }] },
    context,
  );
  t.same(promptArguments(listForm.item!.arguments), [
    { name: 'a', description: 'A', required: true },
    { name: 'b', description: '', required: false },
  ]);
  t.equal(listForm.item?.role, 'user');
  t.equal(normalizePrompt({ role: 'assistant' }, context).item?.role, 'assistant');
  const system = normalizePrompt({ role: 'system' }, context);
  t.equal(system.item?.role, 'user');
  t.match(system.warnings, [/not an MCP role/]);
  t.match(normalizePrompt({ arguments: 'x' }, context).error, /arguments must be a JSON Schema object/);
});

t.test('completion script output: arrays, objects, limits and hasMore', async (t) => {
  t.same(parseCompletionOutput('', 5), { values: [], hasMore: false });
  t.same(parseCompletionOutput('["a","b","c"]', 2), { values: ['a', 'b'], hasMore: true });
  t.same(parseCompletionOutput('{"suggestions":["a"],"hasMore":true,"next":"7"}', 5), {
    values: ['a'],
    hasMore: true,
    next: 7,
  });
  t.same(parseCompletionOutput('{"suggestions":["a"],"cursor":"c1"}', 5), {
    values: ['a'],
    hasMore: true,
    cursor: 'c1',
  });
  t.throws(() => parseCompletionOutput('["a",1]', 5), /array of strings/);
  t.throws(() => parseCompletionOutput('not json', 5), /invalid JSON/);
  t.throws(() => parseCompletionOutput('"str"', 5), /array or object/);
});

t.test('the built-in generator pages through base, snippet, example', async (t) => {
  t.same(builtinCompletions('name', '  ab ', 0, 5), { values: ['ab', 'ab snippet', 'ab example'], hasMore: false });
  t.same(builtinCompletions('name', '', 0, 2), { values: ['name', 'name snippet'], hasMore: true, next: 2 });
  t.same(builtinCompletions(' ', '', 2, 2), { values: ['suggestion example'], hasMore: false });
});

t.test('completion cursors round-trip and are bound to their name and arguments', async (t) => {
  const cursor = encodeCompletionCursor({ name: 'n', args: 'h', offset: 3, script: 'builtin:n', scriptCursor: 'c' });
  t.match(decodeCompletionCursor(cursor, 'n', 'h'), {
    ver: 1,
    kind: 'completion',
    offset: 3,
    script: 'builtin:n',
    scriptCursor: 'c',
  });
  t.throws(() => decodeCompletionCursor(cursor, 'other', 'h'), { kind: 'invalid-request', message: 'Invalid cursor' });
  t.throws(
    () => decodeCompletionCursor(cursor, 'n', 'other-args'),
    { kind: 'invalid-request', message: 'Invalid cursor' },
    'issued for other arguments',
  );
  t.throws(() => decodeCompletionCursor('%%%', 'n', 'h'), { kind: 'invalid-request', message: 'Invalid cursor' });
  t.throws(
    () =>
      decodeCompletionCursor(
        Buffer.from('{"ver":1,"kind":"completion","name":"n","args":"h","offset":-1,"script":"x"}').toString(
          'base64url',
        ),
        'n',
        'h',
      ),
    { message: 'Invalid cursor' },
  );
});
