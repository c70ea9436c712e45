import { mkdirSync, unlinkSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import t from 'tap';
import { fixtureProject } from '../../helpers/fixtures.js';
import { startInProcess } from '../../helpers/in-process-server.js';
import type { McpSession } from '../../helpers/mcp-session.js';
import { writtenRegistryFile } from '../../helpers/registry-envelope.js';
import { isolatedEnv } from '../../helpers/run-binary.js';
import { connectSdkClient, sdkEnv } from '../../helpers/sdk-client.js';

interface Owner {
  teardown(fn: () => unknown): void;
}

async function serve(
  t: Owner,
  options: { env?: NodeJS.ProcessEnv; protocolVersion?: string; project?: string } = {},
): Promise<McpSession> {
  const server = await startInProcess({
    projectRoot: options.project ?? fixtureProject('prompts'),
    env: isolatedEnv(options.env),
    ...(options.protocolVersion ? { protocolVersion: options.protocolVersion } : {}),
  });
  t.teardown(() => server.close());
  return server;
}

const textOf = (response: { result?: unknown }) =>
  (response.result as { messages: Array<{ content: { text: string } }> }).messages[0]?.content.text;

t.test('prompts/list: prompts per D8, arguments in MCP form, spec fields only', async (t) => {
  const server = await serve(t);
  const { result } = await server.request('prompts/list');
  t.same(
    result,
    {
      prompts: [
        {
          name: 'greet',
          title: 'Greeting',
          description: 'Greets someone',
          arguments: [
            { name: 'name', title: 'Name', description: 'Who to greet', required: true },
            { name: 'times', description: 'How often', required: false },
            { name: 'loud', description: '', required: false },
          ],
        },
        { name: 'persona', arguments: [] },
        {
          name: 'review',
          description: 'Reviews code',
          arguments: [
            { name: 'code', description: 'The code', required: true },
            { name: 'focus', description: '', required: false },
          ],
        },
      ],
      _meta: { 'mcpbash/total': 3 },
    },
    'README.md is not a prompt; no path, role or metadata (D16)',
  );
  const warnings = server
    .notifications('notifications/message')
    .map((m) => String(m.params?.data))
    .join('\n');
  t.match(warnings, /orphan\.meta\.json: no template found/);
  t.match(warnings, /broken\.meta\.json: invalid metadata/);
  t.match(warnings, /role "system" is not an MCP role/);
  const page = (await server.request('prompts/list', { limit: 2 })).result as {
    prompts: unknown[];
    nextCursor: string;
  };
  t.equal(page.prompts.length, 2);
  t.same(
    (
      (await server.request('prompts/list', { cursor: page.nextCursor })).result as { prompts: Array<{ name: string }> }
    ).prompts.map((p) => p.name),
    ['review'],
  );
});

t.test('prompts/list has no titles before 2025-06-18', async (t) => {
  const server = await serve(t, { protocolVersion: '2025-03-26' });
  const { prompts } = (await server.request('prompts/list')).result as {
    prompts: Array<Record<string, unknown> & { arguments: Array<Record<string, unknown>> }>;
  };
  t.notOk(prompts.some((prompt) => 'title' in prompt || prompt.arguments.some((argument) => 'title' in argument)));
});

t.test('prompts/get renders {{var}}: multi-line, numbers, booleans, unknown placeholders, exact text', async (t) => {
  const server = await serve(t);
  const greet = await server.request('prompts/get', {
    name: 'greet',
    arguments: { name: 'Ann\nand Bob', times: 3, loud: false },
  });
  const rendered = 'Hello Ann\nand Bob! times=3 loud=false keep={{unknown}} shell=${name}\n\n';
  t.same(
    greet.result,
    {
      description: 'Greets someone',
      messages: [{ role: 'user', content: { type: 'text', text: rendered } }],
      text: rendered,
      arguments: { name: 'Ann\nand Bob', times: 3, loud: false },
      metadata: { owner: 'tests' },
    },
    "1.x's result shape (original-behaviour §7.1): text, the arguments echoed, metadata",
  );
  const review = await server.request('prompts/get', { name: 'review', arguments: { code: 'x = {{focus}}' } });
  t.match(
    review.result,
    {
      messages: [{ role: 'assistant', content: { type: 'text', text: 'Review this:\nx = {{focus}}\nFocus: ' } }],
    },
    'values are not expanded again; an absent optional argument renders empty (D129)',
  );
  const persona = (await server.request('prompts/get', { name: 'persona', arguments: { persona: 'a pirate' } }))
    .result as Record<string, unknown>;
  t.match(
    persona,
    { messages: [{ role: 'user', content: { text: 'You are a pirate.' } }], text: 'You are a pirate.' },
    'role "system" is sent as user',
  );
  t.notOk('metadata' in persona || 'description' in persona, 'no metadata or description when the prompt has none');
  t.same((await server.request('prompts/get', { name: 'review', arguments: { code: 'x' } })).result, {
    description: 'Reviews code',
    messages: [{ role: 'assistant', content: { type: 'text', text: 'Review this:\nx\nFocus: ' } }],
    text: 'Review this:\nx\nFocus: ',
    arguments: { code: 'x' },
  });
  t.same(
    ((await server.request('prompts/get', { name: 'persona' })).result as Record<string, unknown>).arguments,
    {},
    'no arguments: {} echoed',
  );
});

t.test('prompts/get errors: name, unknown prompt, missing required arguments (D22), bad values', async (t) => {
  const server = await serve(t);
  t.match((await server.request('prompts/get', {})).error, { code: -32602, message: 'Prompt name is required' });
  t.match((await server.request('prompts/get', { name: 'nope' })).error, { code: -32602, message: 'Prompt not found' });
  t.match((await server.request('prompts/get', { name: 'greet', arguments: { times: 1 } })).error, {
    code: -32602,
    message: 'Missing required argument "name" for prompt "greet"',
    data: { missing: ['name'] },
  });
  t.match((await server.request('prompts/get', { name: 'review' })).error, { code: -32602, message: /"code"/ });
  t.match((await server.request('prompts/get', { name: 'greet', arguments: { name: { first: 'A' } } })).error, {
    code: -32602,
    message: /must be a string/,
  });
});

t.test('register.json prompts replace discovery, normalised; a template outside prompts/ is refused', async (t) => {
  const project = fixtureProject('prompts');
  const registerJson = join(project, 'server.d', 'register.json');
  writeFileSync(
    registerJson,
    JSON.stringify({
      version: 1,
      prompts: [
        {
          name: 'manual',
          description: 'by hand',
          path: 'greet.txt',
          role: 'assistant',
          arguments: { type: 'object', properties: { name: { type: 'string' } } },
        },
        { name: 'empty' },
      ],
    }),
  );
  const server = await serve(t, { project, env: { MCP_PROMPTS_TTL: '0' } });
  t.same(
    ((await server.request('prompts/list')).result as { prompts: Array<{ name: string }> }).prompts.map((p) => p.name),
    ['empty', 'manual'],
  );
  const manual = await server.request('prompts/get', { name: 'manual', arguments: { name: 'Zed' } });
  t.match(manual.result, {
    description: 'by hand',
    messages: [{ role: 'assistant', content: { text: /^Hello Zed! times=\{\{times\}\}/ } }],
  });
  t.equal(textOf(await server.request('prompts/get', { name: 'empty' })), '', 'no template: an empty message');
  writeFileSync(
    registerJson,
    JSON.stringify({ version: 1, prompts: [{ name: 'sneaky', path: '../server.d/server.meta.json' }] }),
  );
  // One bad entry costs only itself (D126): the list still answers, without it.
  t.same((await server.request('prompts/list')).result, { prompts: [], _meta: { 'mcpbash/total': 0 } });
  await server.waitForStderr(
    new RegExp(
      'prompts\\[0\\]: path "\\.\\.\\/server\\.d\\/server\\.meta\\.json" must stay inside the prompts ' +
        'directory; the entry is skipped',
    ),
  );
  // A message's file is looked up in prompts/ too, and the warning says so, once.
  writeFileSync(
    registerJson,
    JSON.stringify({
      version: 1,
      prompts: [{ name: 'peek', messages: [{ content: { type: 'text', path: '../server.d/server.meta.json' } }] }],
    }),
  );
  t.same((await server.request('prompts/list')).result, { prompts: [], _meta: { 'mcpbash/total': 0 } });
  await server.waitForStderr(
    new RegExp(
      'prompts\\[0\\]: messages\\[0\\]: "\\.\\.\\/server\\.d\\/server\\.meta\\.json" does not exist inside ' +
        'the prompts directory; the entry is skipped\n',
    ),
  );
  t.notMatch(server.stderr, /prompt skipped; the entry is skipped/);
});

t.test("1.x's scaffold layout: a meta file's path relative to the project root still names the template", async (t) => {
  const project = fixtureProject('prompts-1x');
  const server = await serve(t, { project });
  const { prompts } = (await server.request('prompts/list')).result as { prompts: Array<{ name: string }> };
  t.same(
    prompts.map((prompt) => prompt.name),
    ['prompt.summarize'],
    'prompts/summarize/summarize.meta.json with "path": "prompts/summarize/summarize.txt"',
  );
  const got = await server.request('prompts/get', {
    name: 'prompt.summarize',
    arguments: { subject: 'disks', details: 'full' },
  });
  t.equal(textOf(got), 'Summarize disks.\nDetails: full\n');
});

t.test(
  'a declared path is looked up beside the meta file, then in prompts/, then at the project root, never outside',
  async (t) => {
    const project = fixtureProject('prompts-1x');
    const prompts = join(project, 'prompts');
    const write = (path: string, text: string) => {
      mkdirSync(dirname(path), { recursive: true });
      writeFileSync(path, text);
    };
    const meta = (name: string, path: string) =>
      write(join(prompts, name, `${name}.meta.json`), JSON.stringify({ name, path }));
    write(join(prompts, 'near', 'shared.txt'), 'beside the meta file');
    write(join(prompts, 'shared.txt'), 'in prompts/');
    write(join(project, 'shared.txt'), 'at the project root');
    write(join(project, 'templates', 'root-only.txt'), 'only at the project root');
    write(join(dirname(project), 'outside.txt'), 'outside the project');
    meta('near', 'shared.txt');
    meta('middle', 'shared.txt');
    meta('rooted', 'templates/root-only.txt');
    meta('escape', '../outside.txt');
    meta('absolute', join(dirname(project), 'outside.txt'));
    const server = await serve(t, { project });
    const names = ((await server.request('prompts/list')).result as { prompts: Array<{ name: string }> }).prompts.map(
      (prompt) => prompt.name,
    );
    t.same(names, ['middle', 'near', 'prompt.summarize', 'rooted']);
    t.equal(textOf(await server.request('prompts/get', { name: 'near' })), 'beside the meta file');
    t.equal(textOf(await server.request('prompts/get', { name: 'middle' })), 'in prompts/');
    t.equal(textOf(await server.request('prompts/get', { name: 'rooted' })), 'only at the project root');
    const warnings = server
      .notifications('notifications/message')
      .map((m) => String(m.params?.data))
      .join('\n');
    t.match(
      warnings,
      /escape\/escape\.meta\.json: its template "\.\.\/outside\.txt" does not exist inside the project/,
    );
    t.match(
      warnings,
      /absolute\/absolute\.meta\.json: its template ".*outside\.txt" does not exist inside the project/,
    );
  },
);

t.test('a template that disappeared is an internal error saying which prompt', async (t) => {
  const project = fixtureProject('prompts');
  const server = await serve(t, { project, env: { MCP_PROMPTS_TTL: '60' } });
  await server.request('prompts/list');
  unlinkSync(join(project, 'prompts', 'persona.txt'));
  t.match((await server.request('prompts/get', { name: 'persona' })).error, {
    code: -32603,
    message: /template of prompt "persona" \(persona\.txt\) cannot be read/,
  });
});

t.test('.registry/prompts.json has the seed-003 envelope and is rescanned only after MCP_PROMPTS_TTL', async (t) => {
  const project = fixtureProject('prompts');
  const server = await serve(t, { project, env: { MCP_PROMPTS_TTL: '1' } });
  const scanned = Date.now();
  const names = async () =>
    ((await server.request('prompts/list')).result as { prompts: Array<{ name: string }> }).prompts.map(
      (prompt) => prompt.name,
    );
  const first = await names();
  writeFileSync(join(project, 'prompts', 'late.txt'), 'late');
  writeFileSync(join(project, 'prompts', 'late.meta.json'), '{}');
  t.notOk((await names()).includes('late'), 'within the TTL the registry is reused');
  // Ask until the change shows: the answer that has it came at least a TTL after the scan.
  let found = false;
  while (!found && Date.now() - scanned < 10_000) found = (await names()).includes('late');
  t.ok(found, 'after the TTL the change is found');
  t.ok(Date.now() - scanned >= 1000, `not before the TTL (${Date.now() - scanned} ms)`);
  // The rescan's registry reaches .registry/ too (a moment after it).
  const cache = await writtenRegistryFile(t, join(project, '.registry', 'prompts.json'), (items) =>
    items.some((item) => item.name === 'late'),
  );
  t.same(
    cache.items.map((item) => item.name),
    [...first, 'late'].sort(),
  );
  t.match(
    cache.items.find((item) => item.name === 'greet'),
    { path: 'greet.txt', role: 'user', metadata: { owner: 'tests' } },
    'internal fields stay in the cache (D16)',
  );
});

t.test('new prompts send prompts/list_changed', async (t) => {
  const project = fixtureProject('prompts');
  const server = await serve(t, {
    project,
    env: { MCP_TOOLS_TTL: '0', MCP_RESOURCES_TTL: '0', MCP_RESOURCES_TEMPLATES_TTL: '0', MCP_PROMPTS_TTL: '0' },
  });
  await server.request('prompts/list');
  writeFileSync(join(project, 'prompts', 'late.txt'), 'late {{x}}');
  writeFileSync(join(project, 'prompts', 'late.meta.json'), '{"description":"added later"}');
  await server.waitFor((m) => m.method === 'notifications/prompts/list_changed', 5000, 'prompts/list_changed');
  t.match((await server.request('prompts/get', { name: 'late', arguments: { x: 1 } })).result, {
    description: 'added later',
    messages: [{ content: { text: 'late 1' } }],
  });
  t.equal(server.notifications('notifications/resources/list_changed').length, 0);
});

t.test('the official SDK client lists and gets prompts', async (t) => {
  const { client } = await connectSdkClient({
    env: sdkEnv(isolatedEnv({ MCPBASH_PROJECT_ROOT: fixtureProject('prompts') })),
  });
  t.teardown(() => client.close());
  const { prompts } = await client.listPrompts();
  t.same(
    prompts.map((prompt) => prompt.name),
    ['greet', 'persona', 'review'],
  );
  const result = await client.getPrompt({ name: 'greet', arguments: { name: 'SDK', times: '2' } });
  const rendered = 'Hello SDK! times=2 loud= keep={{unknown}} shell=${name}\n\n';
  t.same(result.messages, [{ role: 'user', content: { type: 'text', text: rendered } }]);
  t.match(
    result,
    { text: rendered, arguments: { name: 'SDK', times: '2' }, metadata: { owner: 'tests' } },
    "the client accepts and keeps 1.x's extra fields",
  );
  await t.rejects(client.getPrompt({ name: 'greet' }), { code: -32602 });
});
