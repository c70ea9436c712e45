import { chmodSync, existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import t from 'tap';
import { fixtureProject } from '../../helpers/fixtures.js';
import { startInProcess } from '../../helpers/in-process-server.js';
import { writtenRegistryFile } from '../../helpers/registry-envelope.js';
import { toolEnv } from '../../helpers/run-binary.js';

interface ListedTool {
  name: string;
  title?: string;
  description: string;
  inputSchema: Record<string, unknown>;
  icons?: Array<{ src: string; mimeType?: string }>;
  annotations?: Record<string, unknown>;
  [key: string]: unknown;
}

t.test('tools/list shows the tools D7 recognises, and nothing else', async (t) => {
  const project = fixtureProject('tools');
  const server = await startInProcess({ projectRoot: project, env: toolEnv() });
  const result = (await server.request('tools/list', { limit: 200 })).result as {
    tools: ListedTool[];
    _meta: Record<string, unknown>;
    nextCursor?: string;
  };
  const names = result.tools.map((tool) => tool.name);
  t.same(names, [...names].sort(), 'sorted by name');
  for (const expected of ['echo-text', 'echo-json', 'inline-header', 'noexec', 'slow', 'timeout-max', 'demo.echo'])
    t.ok(names.includes(expected), `${expected} is listed`);
  for (const absent of ['helper', 'tool', 'bad/name', 'hidden', 'root-level'])
    t.notOk(names.includes(absent), `${absent} is not`);
  t.equal(result._meta['mcpbash/total'], names.length, 'the total is in _meta');
  t.notOk('nextCursor' in result, 'no cursor on the last page');
  t.match(server.stderr, /tool name "bad\/name" is invalid/, 'the bad name is reported on stderr');
  await server.close();
});

t.test('listed tools carry only MCP fields; metadata, inline headers and icons come through', async (t) => {
  const project = fixtureProject('tools');
  const server = await startInProcess({ projectRoot: project, env: toolEnv() });
  const { tools } = (await server.request('tools/list', { limit: 200 })).result as { tools: ListedTool[] };
  const byName = new Map(tools.map((tool) => [tool.name, tool]));
  const allowed = new Set([
    'name',
    'title',
    'description',
    'inputSchema',
    'outputSchema',
    'annotations',
    'icons',
    '_meta',
  ]);
  for (const tool of tools)
    t.same(
      Object.keys(tool).filter((key) => !allowed.has(key)),
      [],
      `${tool.name}: no path, timeoutSecs or other internals (D16)`,
    );
  const echo = byName.get('echo-text');
  t.equal(echo?.title, 'Echo Text', 'title passed through (D21)');
  t.same(echo?.annotations, { readOnlyHint: true, destructiveHint: false });
  t.match(
    echo?.icons?.[0],
    { mimeType: 'image/svg+xml', src: /^data:image\/svg\+xml;base64,/ },
    'a local icon becomes a data URI',
  );
  t.same(byName.get('inline-header')?.inputSchema, { type: 'object', properties: { x: { type: 'number' } } });
  t.equal(byName.get('inline-header')?.description, 'Metadata from an inline header');
  t.same(byName.get('noexec')?.inputSchema, { type: 'object', properties: {} }, 'no metadata: an empty object schema');
  t.match(byName.get('outputs-schema')?.outputSchema, { type: 'object', required: ['count', 'label'] });
  await server.close();
});

t.test('title is not sent to clients of versions without it', async (t) => {
  const project = fixtureProject('tools');
  const server = await startInProcess({ projectRoot: project, env: toolEnv(), protocolVersion: '2025-03-26' });
  const { tools } = (await server.request('tools/list', { limit: 200 })).result as { tools: ListedTool[] };
  t.notOk(tools.some((tool) => 'title' in tool));
  await server.close();
});

t.test('pagination: limit, an opaque cursor, and refusal of stale or foreign cursors', async (t) => {
  const project = fixtureProject('tools');
  const server = await startInProcess({ projectRoot: project, env: toolEnv({ MCP_TOOLS_TTL: '0' }) });
  const all = ((await server.request('tools/list', { limit: 200 })).result as { tools: ListedTool[] }).tools.map(
    (tool) => tool.name,
  );
  const seen: string[] = [];
  let cursor: string | undefined;
  let pages = 0;
  do {
    const page = (await server.request('tools/list', cursor ? { cursor, limit: 3 } : { limit: 3 })).result as {
      tools: ListedTool[];
      nextCursor?: string;
    };
    t.ok(page.tools.length <= 3);
    seen.push(...page.tools.map((tool) => tool.name));
    cursor = page.nextCursor;
    pages += 1;
  } while (cursor);
  t.same(seen, all, 'pages add up to the whole list, in order');
  t.equal(pages, Math.ceil(all.length / 3));
  const first = (await server.request('tools/list', { limit: 2 })).result as { nextCursor: string };
  t.match(
    Buffer.from(first.nextCursor, 'base64url').toString(),
    /"collection":"tools"/,
    'base64url JSON naming its collection',
  );
  t.match((await server.request('tools/list', { cursor: 'garbage!' })).error, {
    code: -32602,
    message: 'Invalid cursor',
  });
  const foreign = Buffer.from(JSON.stringify({ ver: 1, collection: 'prompts', offset: 0, hash: 'x' })).toString(
    'base64url',
  );
  t.match((await server.request('tools/list', { cursor: foreign })).error, { code: -32602, message: 'Invalid cursor' });
  // JSON that is not the object a cursor holds: null once crashed the decoder (-32603).
  const shapes = [null, 5, 'text', [1, 2], {}, { ver: 1 }, true];
  for (const shape of shapes) {
    const cursor = Buffer.from(JSON.stringify(shape)).toString('base64url');
    for (const method of ['tools/list', 'prompts/list', 'resources/list', 'resources/templates/list']) {
      t.match(
        (await server.request(method, { cursor })).error,
        { code: -32602, message: 'Invalid cursor' },
        `${method} with the cursor ${JSON.stringify(shape)}`,
      );
    }
  }
  mkdirSync(join(project, 'tools', 'added'));
  writeFileSync(join(project, 'tools', 'added', 'tool.sh'), '#!/usr/bin/env bash\nprintf added\n');
  chmodSync(join(project, 'tools', 'added', 'tool.sh'), 0o755);
  t.match(
    (await server.request('tools/list', { cursor: first.nextCursor })).error,
    { code: -32602, message: 'Invalid cursor', data: /changed since/ },
    'a cursor from before a change is stale',
  );
  await server.close();
});

t.test('the registry cache has the seed-003 envelope, written after the first answers', async (t) => {
  const project = fixtureProject('tools');
  const server = await startInProcess({ projectRoot: project, env: toolEnv() });
  const asked = Date.now();
  await server.request('tools/list');
  // Not written while the first lists are answered, but a second after the scan, while the
  // server runs. (Checked only when the list came back well within that second.)
  if (Date.now() - asked < 500) t.notOk(existsSync(join(project, '.registry', 'tools.json')), 'not written yet');
  const cache = await writtenRegistryFile(t, join(project, '.registry', 'tools.json'));
  t.match(
    cache.items.find((item) => item.name === 'slow'),
    { path: 'slow/tool.sh', timeoutSecs: 120 },
    'internal fields stay in the cache',
  );
  await server.close();
});

t.test('a session that ends before the delayed cache write still leaves .registry/tools.json', async (t) => {
  const project = fixtureProject('tools');
  const server = await startInProcess({ projectRoot: project, env: toolEnv() });
  await server.request('tools/list');
  await server.close();
  // Right after the stop, well before the delayed write would have come: the stop wrote it.
  t.ok(existsSync(join(project, '.registry', 'tools.json')), 'written at the stop');
});

t.test('adding a tool sends exactly one tools/list_changed; 2025-03-26 and 2024-11-05 clients get none', async (t) => {
  const project = fixtureProject('tools');
  const server = await startInProcess({ projectRoot: project, env: toolEnv({ MCP_TOOLS_TTL: '0.2' }) });
  await server.request('tools/list');
  // Nothing marks a background poll (every second; TTL 0.2 s): 1.5 s holds at least one.
  await new Promise((resolve) => setTimeout(resolve, 1500));
  t.equal(
    server.notifications('notifications/tools/list_changed').length,
    0,
    'no notification for lists nobody changed (D28)',
  );
  mkdirSync(join(project, 'tools', 'fresh'));
  writeFileSync(join(project, 'tools', 'fresh', 'tool.sh'), '#!/usr/bin/env bash\nprintf fresh\n');
  chmodSync(join(project, 'tools', 'fresh', 'tool.sh'), 0o755);
  await server.waitFor((m) => m.method === 'notifications/tools/list_changed', 5000);
  // A second one would come with the next background poll, within a second.
  await new Promise((resolve) => setTimeout(resolve, 1200));
  t.equal(server.notifications('notifications/tools/list_changed').length, 1, 'exactly one');
  const { tools } = (await server.request('tools/list', { limit: 200 })).result as { tools: ListedTool[] };
  t.ok(tools.some((tool) => tool.name === 'fresh'));
  await server.close();

  for (const protocolVersion of ['2025-03-26', '2024-11-05']) {
    const legacyProject = fixtureProject('tools');
    const legacy = await startInProcess({
      projectRoot: legacyProject,
      env: toolEnv({ MCP_TOOLS_TTL: '0.2' }),
      protocolVersion,
    });
    await legacy.request('tools/list');
    mkdirSync(join(legacyProject, 'tools', 'fresh'));
    writeFileSync(join(legacyProject, 'tools', 'fresh', 'tool.sh'), '#!/usr/bin/env bash\nprintf fresh\n');
    chmodSync(join(legacyProject, 'tools', 'fresh', 'tool.sh'), 0o755);
    // The rescan that sees the change is the one that would announce it, before its answer.
    let seen = false;
    for (const started = Date.now(); !seen && Date.now() - started < 10_000; ) {
      seen = (await listNames(legacy)).includes('fresh');
    }
    t.ok(seen, `${protocolVersion}: the change was seen`);
    t.equal(
      legacy.notifications('notifications/tools/list_changed').length,
      0,
      `${protocolVersion}: and not announced`,
    );
    await legacy.close();
  }
});

t.test('MCPBASH_REGISTRY_MAX_BYTES: an oversized registry fails list and call with -32603', async (t) => {
  const project = fixtureProject('tools');
  const server = await startInProcess({ projectRoot: project, env: toolEnv({ MCPBASH_REGISTRY_MAX_BYTES: '2000' }) });
  const list = await server.request('tools/list');
  t.match(list.error, { code: -32603, message: /over MCPBASH_REGISTRY_MAX_BYTES \(2000\)/ });
  t.match((await server.request('tools/call', { name: 'echo-text' })).error, { code: -32603 });
  await server.close();
});

t.test('a tools dir override (MCPBASH_TOOLS_DIR) is honoured', async (t) => {
  const project = fixtureProject('tools');
  const other = join(project, 'other-tools');
  mkdirSync(join(other, 'only'), { recursive: true });
  writeFileSync(join(other, 'only', 'tool.sh'), '#!/usr/bin/env bash\nprintf only\n');
  chmodSync(join(other, 'only', 'tool.sh'), 0o755);
  const server = await startInProcess({ projectRoot: project, env: toolEnv({ MCPBASH_TOOLS_DIR: 'other-tools' }) });
  const { tools } = (await server.request('tools/list')).result as { tools: ListedTool[] };
  t.same(
    tools.map((tool) => tool.name),
    ['only'],
  );
  t.match((await server.request('tools/call', { name: 'only' })).result, { content: [{ text: 'only' }] });
  await server.close();
});

/** Adds `tools/<dir>/tool.sh`, optionally with a tool.meta.json. */
function addTool(project: string, dir: string, meta?: Record<string, unknown>): void {
  mkdirSync(join(project, 'tools', dir), { recursive: true });
  writeFileSync(join(project, 'tools', dir, 'tool.sh'), `#!/usr/bin/env bash\nprintf '%s' '${dir}'\n`);
  chmodSync(join(project, 'tools', dir, 'tool.sh'), 0o755);
  if (meta) writeFileSync(join(project, 'tools', dir, 'tool.meta.json'), JSON.stringify(meta));
}

const listNames = async (server: Awaited<ReturnType<typeof startInProcess>>) =>
  ((await server.request('tools/list', { limit: 200 })).result as { tools: ListedTool[] }).tools.map(
    (tool) => tool.name,
  );

t.test('list_changed latency: a new tool is announced within the TTL plus about a second', async (t) => {
  const project = fixtureProject('tools');
  const server = await startInProcess({ projectRoot: project, env: toolEnv({ MCP_TOOLS_TTL: '2' }) });
  await server.request('tools/list');
  addTool(project, 'fresh');
  const added = Date.now();
  await server.waitFor((m) => m.method === 'notifications/tools/list_changed', 8000);
  const latency = Date.now() - added;
  t.ok(latency <= 3500, `announced ${latency} ms after the change (TTL 2 s)`);
  await server.close();
});

t.test('the TTL caches: with the default 5 s, a new tool is not listed a second later', async (t) => {
  const project = fixtureProject('tools');
  const server = await startInProcess({ projectRoot: project, env: toolEnv() });
  t.notOk((await listNames(server)).includes('fresh'));
  addTool(project, 'fresh');
  // The stimulus: the change is a second old when the client lists again.
  await new Promise((resolve) => setTimeout(resolve, 1000));
  t.notOk((await listNames(server)).includes('fresh'), 'still the cached list');
  await server.close();
});

t.test('discovery warnings are given once per distinct message, not on every rescan', async (t) => {
  const project = fixtureProject('tools');
  const server = await startInProcess({ projectRoot: project, env: toolEnv({ MCP_TOOLS_TTL: '0' }) });
  for (let i = 0; i < 3; i += 1) {
    addTool(project, `more-${i}`);
    t.ok((await listNames(server)).includes(`more-${i}`), `rescan ${i} found the new tool`);
  }
  const count = (pattern: RegExp) => server.stderr.split('\n').filter((line) => pattern.test(line)).length;
  t.equal(count(/tool name "bad\/name" is invalid/), 1, 'the bad name once');
  addTool(project, 'bad-timeout', { timeoutSecs: 'soon' });
  await listNames(server);
  addTool(project, 'more-3');
  await listNames(server);
  t.equal(count(/bad-timeout\/tool\.sh: timeoutSecs must be a positive integer/), 1, 'a new problem is reported, once');
  t.equal(count(/tool name "bad\/name" is invalid/), 1);
  await server.close();
});

t.test('MCPBASH_REGISTRY_REFRESH_PATH limits tools scans to a literal sub-path', async (t) => {
  const fresh = fixtureProject('tools');
  const only = await startInProcess({
    projectRoot: fresh,
    env: toolEnv({ MCPBASH_REGISTRY_REFRESH_PATH: 'tools/echo-text' }),
  });
  t.same(await listNames(only), ['echo-text'], 'no previous registry: only the tools under the path');
  await only.close();

  const project = fixtureProject('tools');
  const first = await startInProcess({ projectRoot: project, env: toolEnv() });
  const before = await listNames(first);
  await first.close();
  addTool(project, 'outside-new');
  writeFileSync(
    join(project, 'tools', 'echo-text', 'tool.meta.json'),
    JSON.stringify({ name: 'echo-text', description: 'changed inside' }),
  );
  const limited = await startInProcess({
    projectRoot: project,
    env: toolEnv({ MCPBASH_REGISTRY_REFRESH_PATH: 'tools/echo-text' }),
  });
  const { tools } = (await limited.request('tools/list', { limit: 200 })).result as { tools: ListedTool[] };
  t.same(
    tools.map((tool) => tool.name),
    before,
    'entries outside the path are kept from the previous registry; nothing new outside it',
  );
  t.equal(
    tools.find((tool) => tool.name === 'echo-text')?.description,
    'changed inside',
    'entries inside it are rescanned',
  );
  await limited.close();

  const globbing = fixtureProject('tools');
  addTool(globbing, 'star*', { name: 'literal-star' });
  addTool(globbing, 'stardust');
  const literal = await startInProcess({
    projectRoot: globbing,
    env: toolEnv({ MCPBASH_REGISTRY_REFRESH_PATH: 'tools/star*' }),
  });
  t.same(await listNames(literal), ['literal-star'], 'the "*" is a literal character, not a glob');
  await literal.close();
});
