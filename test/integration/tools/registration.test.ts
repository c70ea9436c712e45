import { chmodSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import t from 'tap';
import { fixtureProject } from '../../helpers/fixtures.js';
import { startInProcess } from '../../helpers/in-process-server.js';
import { toolEnv } from '../../helpers/run-binary.js';

function withRegisterJson(content: string | Buffer): string {
  const project = fixtureProject('tools');
  writeFileSync(join(project, 'server.d', 'register.json'), content);
  return project;
}

async function toolNames(project: string, env = toolEnv()) {
  const server = await startInProcess({ projectRoot: project, env });
  const response = await server.request('tools/list', { limit: 200 });
  const call = await server.request('tools/call', { name: 'manual-echo' });
  await server.close();
  return { response, call, stderr: server.stderr };
}

t.test('register.json tools replace discovery, normalised, and run', async (t) => {
  const project = withRegisterJson(
    JSON.stringify({
      version: 1,
      tools: [
        {
          name: 'manual-echo',
          description: 'registered by hand',
          path: 'echo-text/tool.sh',
          timeoutSecs: 5,
          title: 'Manual',
        },
      ],
    }),
  );
  const { response, call } = await toolNames(project);
  t.same((response.result as { tools: unknown[] }).tools, [
    {
      name: 'manual-echo',
      title: 'Manual',
      description: 'registered by hand',
      inputSchema: { type: 'object', properties: {} },
    },
  ]);
  t.match(call.result, { content: [{ text: 'plain text, not trimmed  \n' }] });
});

t.test('register.json: an empty array disables a kind, null or absent falls through to discovery', async (t) => {
  const empty = await toolNames(withRegisterJson('{"version":1,"tools":[]}'));
  t.same((empty.response.result as { tools: unknown[] }).tools, []);
  const fallsThrough = await toolNames(withRegisterJson('{"version":1,"tools":null,"prompts":[]}'));
  t.ok((fallsThrough.response.result as { tools: unknown[] }).tools.length > 5);
});

t.test('an invalid register.json fails loudly, with no fallback', async (t) => {
  const cases: Array<[string, string | Buffer, RegExp]> = [
    ['unknown key', '{"version":1,"tool":[]}', /must NOT have additional properties/],
    ['wrong version', '{"version":2}', /\/version must be equal to constant/],
    ['kind not an array', '{"version":1,"tools":{}}', /\/tools must be array,null/],
    ['comments', '{"version":1 /* no */}', /not valid JSON/],
    ['a BOM', Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from('{"version":1}')]), /byte order mark/],
  ];
  for (const [name, content, pattern] of cases) {
    const { response, call } = await toolNames(withRegisterJson(content));
    t.equal(response.error?.code, -32603, `${name}: tools/list fails`);
    t.match(response.error?.message, /server\.d\/register\.json is invalid/, name);
    t.match(response.error?.message, pattern, name);
    t.equal(call.error?.code, -32603, `${name}: tools/call fails too`);
  }
});

t.test(
  'a bad register.json entry costs only that entry, with a warning naming it; dotted names are served',
  async (t) => {
    const project = withRegisterJson(
      JSON.stringify({
        version: 1,
        // 1.x's example 09 registers `manual.progress`: MCP 2025-11-25 allows dots.
        tools: [
          { name: 'manual.progress', path: 'echo-text/tool.sh' },
          { name: 'no-path' },
          { name: 'bad name', path: 'echo-text/tool.sh' },
          'not an object',
          { name: 'manual-echo', path: 'echo-json/tool.sh' },
        ],
        prompts: [{ name: 'kept' }, { path: 'x.txt' }],
      }),
    );
    const server = await startInProcess({ projectRoot: project, env: toolEnv() });
    t.teardown(() => server.close());
    const tools = await server.request('tools/list');
    t.same(
      (tools.result as { tools: Array<{ name: string }> }).tools.map((tool) => tool.name),
      ['manual-echo', 'manual.progress'],
    );
    t.match((await server.request('tools/call', { name: 'manual.progress' })).result, { isError: false });
    const prompts = await server.request('prompts/list');
    t.same(
      (prompts.result as { prompts: Array<{ name: string }> }).prompts.map((prompt) => prompt.name),
      ['kept'],
    );
    for (const method of ['resources/list', 'resources/templates/list'])
      t.notOk((await server.request(method)).error, `${method} is not failed by the bad entries`);
    await server.close();
    for (const pattern of [
      /register\.json: tools: tools\[1\] needs a "name" and a "path".*the entry is skipped/,
      /register\.json: tools: tools\[2\]: tool name "bad name" is invalid.*the entry is skipped/,
      /register\.json: tools: tools\[3\] needs a "name" and a "path"/,
      /register\.json: prompts: prompts\[1\]/,
    ])
      t.match(server.stderr, pattern);
    t.notMatch(server.stderr, /manual\.progress/, 'the dotted name draws no warning from the server');
  },
);

t.test('register.json is size capped (MCPBASH_MAX_MANUAL_REGISTRY_BYTES)', async (t) => {
  const { response } = await toolNames(
    withRegisterJson(`{"version":1,"_meta":{"pad":"${'x'.repeat(3000)}"}}`),
    toolEnv({ MCPBASH_MAX_MANUAL_REGISTRY_BYTES: '1000' }),
  );
  t.match(response.error, { code: -32603, message: /over MCPBASH_MAX_MANUAL_REGISTRY_BYTES \(1000\)/ });
});

const hook = [
  '#!/usr/bin/env bash',
  'mcp_register_tool \'{"name":"manual-echo","description":"from register.sh","path":"echo-text/tool.sh"}\'',
  'mcp_register_tool \'{"name":"manual-echo","description":"duplicate","path":"echo-json/tool.sh"}\'',
  '',
].join('\n');

function withRegisterSh(content: string): string {
  const project = fixtureProject('tools');
  const path = join(project, 'server.d', 'register.sh');
  writeFileSync(path, content);
  chmodSync(path, 0o755);
  return project;
}

t.test('register.sh runs only with MCPBASH_ALLOW_PROJECT_HOOKS=true', async (t) => {
  const off = await toolNames(withRegisterSh(hook));
  t.ok((off.response.result as { tools: unknown[] }).tools.length > 5, 'hooks off: discovery as usual, not an error');
  t.match(off.stderr, /set MCPBASH_ALLOW_PROJECT_HOOKS=true to run it/);
  const on = await toolNames(withRegisterSh(hook), toolEnv({ MCPBASH_ALLOW_PROJECT_HOOKS: 'true' }));
  t.same(
    (on.response.result as { tools: Array<{ name: string; description: string }> }).tools.map((tool) => [
      tool.name,
      tool.description,
    ]),
    [['manual-echo', 'from register.sh']],
    'deduped by name',
  );
  t.match(on.call.result, { isError: false });
});

t.test('register.sh may print a JSON object instead of calling helpers', async (t) => {
  const project = withRegisterSh(
    '#!/usr/bin/env bash\nprintf \'{"tools":[{"name":"manual-echo","path":"echo-text/tool.sh"}]}\'\n',
  );
  const { response } = await toolNames(project, toolEnv({ MCPBASH_ALLOW_PROJECT_HOOKS: 'true' }));
  t.same(
    (response.result as { tools: Array<{ name: string }> }).tools.map((tool) => tool.name),
    ['manual-echo'],
  );
});

t.test("MCPBASH_LOG_VERBOSE logs register.sh's output at the default level", async (t) => {
  const script = '#!/usr/bin/env bash\nprintf \'{"tools":[{"name":"manual-echo","path":"echo-text/tool.sh"}]}\'\n';
  const hooks = { MCPBASH_ALLOW_PROJECT_HOOKS: 'true' };
  const quiet = await toolNames(withRegisterSh(script), toolEnv(hooks));
  t.notMatch(quiet.stderr, /register\.sh output/, 'not without it');
  const verbose = await toolNames(withRegisterSh(script), toolEnv({ ...hooks, MCPBASH_LOG_VERBOSE: 'true' }));
  t.match(verbose.stderr, /register\.sh output: \{"tools":\[\{"name":"manual-echo"/);
});

t.test('a failing or untrusted register.sh fails every kind; static mode never runs it', async (t) => {
  const failing = await toolNames(
    withRegisterSh('#!/usr/bin/env bash\necho boom >&2\nexit 4\n'),
    toolEnv({ MCPBASH_ALLOW_PROJECT_HOOKS: 'true' }),
  );
  t.match(failing.response.error, { code: -32603, message: /register\.sh is invalid: it exited with status 4: boom/ });
  const project = withRegisterSh(hook);
  chmodSync(join(project, 'server.d', 'register.sh'), 0o777);
  const untrusted = await toolNames(project, toolEnv({ MCPBASH_ALLOW_PROJECT_HOOKS: 'true' }));
  t.match(untrusted.response.error, { code: -32603, message: /not trusted/ });
  const staticProject = withRegisterSh(hook);
  const staticMode = await toolNames(
    staticProject,
    toolEnv({ MCPBASH_ALLOW_PROJECT_HOOKS: 'true', MCPBASH_STATIC_REGISTRY: '1' }),
  );
  t.notOk(
    (staticMode.response.result as { tools: Array<{ name: string }> }).tools.some(
      (tool) => tool.name === 'manual-echo',
    ),
    'static mode skips register.sh',
  );
});

t.test('static registry mode serves the pre-generated cache without rescanning', async (t) => {
  const project = fixtureProject('tools');
  const first = await startInProcess({ projectRoot: project, env: toolEnv() });
  await first.request('tools/list');
  await first.close();
  mkdirSync(join(project, 'tools', 'late'));
  writeFileSync(join(project, 'tools', 'late', 'tool.sh'), '#!/usr/bin/env bash\nprintf late\n');
  chmodSync(join(project, 'tools', 'late', 'tool.sh'), 0o755);
  const server = await startInProcess({
    projectRoot: project,
    // Static mode's notices are debug lines.
    env: toolEnv({ MCPBASH_STATIC_REGISTRY: '1', MCP_TOOLS_TTL: '0', MCPBASH_LOG_LEVEL: 'debug' }),
  });
  const { tools } = (await server.request('tools/list', { limit: 200 })).result as { tools: Array<{ name: string }> };
  t.notOk(
    tools.some((tool) => tool.name === 'late'),
    'the cache is trusted as is',
  );
  t.match(server.stderr, /static registry mode: serving tools from the pre-generated cache/);
  await server.close();
});

t.test('register.json in a project root writable by others is not trusted', async (t) => {
  const project = withRegisterJson(
    JSON.stringify({ version: 1, tools: [{ name: 'manual-echo', path: 'echo-text/tool.sh' }] }),
  );
  chmodSync(project, 0o777);
  const { response, call } = await toolNames(project);
  t.match(response.error, {
    code: -32603,
    message: /register\.json is invalid: it is not trusted: .* is writable by group or others/,
  });
  t.equal(call.error?.code, -32603);
  chmodSync(project, 0o755);
});

/** A project whose `.registry/tools.json` was written by a server run, then changed by `edit`. */
async function withCache(edit: (cache: Record<string, unknown>) => void): Promise<string> {
  const project = fixtureProject('tools');
  const first = await startInProcess({ projectRoot: project, env: toolEnv() });
  await first.request('tools/list');
  await first.close();
  const file = join(project, '.registry', 'tools.json');
  const cache = JSON.parse(readFileSync(file, 'utf8')) as Record<string, unknown>;
  edit(cache);
  writeFileSync(file, JSON.stringify(cache));
  return project;
}

const ghost = {
  name: 'ghost',
  description: 'only in the cache',
  path: 'echo-text/tool.sh',
  inputSchema: { type: 'object', properties: {} },
  timeoutSecs: null,
};

async function staticList(project: string, extra: NodeJS.ProcessEnv = {}) {
  const server = await startInProcess({
    projectRoot: project,
    env: toolEnv({ MCPBASH_STATIC_REGISTRY: '1', MCPBASH_LOG_LEVEL: 'debug', ...extra }),
  });
  const response = await server.request('tools/list', { limit: 200 });
  const call = await server.request('tools/call', { name: 'manual-echo' });
  await server.close();
  return {
    names: ((response.result ?? { tools: [] }) as { tools: Array<{ name: string }> }).tools.map((tool) => tool.name),
    response,
    call,
    stderr: server.stderr,
  };
}

t.test('static mode honours register.json even when a cache exists (seed 003)', async (t) => {
  const project = await withCache((cache) => {
    (cache.items as unknown[]).push(ghost);
  });
  writeFileSync(
    join(project, 'server.d', 'register.json'),
    JSON.stringify({ version: 1, tools: [{ name: 'manual-echo', path: 'echo-text/tool.sh' }], prompts: null }),
  );
  const { names, call } = await staticList(project);
  t.same(names, ['manual-echo'], 'register.json tools, not the cache');
  t.match(call.result, { content: [{ text: 'plain text, not trimmed  \n' }] });
});

t.test('static mode: a register.json kind left null still serves the cache', async (t) => {
  const project = await withCache((cache) => {
    (cache.items as unknown[]).push(ghost);
  });
  writeFileSync(join(project, 'server.d', 'register.json'), JSON.stringify({ version: 1, tools: null }));
  const { names } = await staticList(project);
  t.ok(names.includes('ghost'), 'the cache is trusted as is');
});

t.test('static mode falls back to discovery without a usable cache', async (t) => {
  const missing = await staticList(fixtureProject('tools'));
  t.ok(missing.names.includes('echo-text'), 'no cache: discovery');
  t.match(missing.stderr, /static registry mode: no valid tools cache; discovering instead/);
  const otherFormat = await staticList(
    await withCache((cache) => {
      (cache.items as unknown[]).push(ghost);
      cache.format_version = 2;
    }),
  );
  t.notOk(otherFormat.names.includes('ghost'), 'format_version 2: not trusted');
  t.ok(otherFormat.names.includes('echo-text'));
  const noFormat = await staticList(
    await withCache((cache) => {
      (cache.items as unknown[]).push(ghost);
      delete cache.format_version;
    }),
  );
  t.notOk(noFormat.names.includes('ghost'), 'no format_version: not trusted');
  const oversized = await withCache((cache) => {
    (cache.items as unknown[]).push({ ...ghost, description: 'x'.repeat(200_000) });
  });
  const big = await staticList(oversized, { MCPBASH_REGISTRY_MAX_BYTES: '150000' });
  t.notOk(big.names.includes('ghost'), 'a cache over MCPBASH_REGISTRY_MAX_BYTES is not read');
  t.ok(big.names.includes('echo-text'));
  const trusted = await staticList(
    await withCache((cache) => {
      (cache.items as unknown[]).push(ghost);
    }),
  );
  t.ok(trusted.names.includes('ghost'), 'control: the same cache within the limits is served');
});
