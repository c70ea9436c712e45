import { mkdirSync, readFileSync, realpathSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import t from 'tap';
import { itemsHash } from '../../../src/json/canonical-json.js';
import { fixtureProject } from '../../helpers/fixtures.js';
import { startInProcess } from '../../helpers/in-process-server.js';
import { toolEnv } from '../../helpers/run-binary.js';

t.test('the 1.x "arguments" key works as inputSchema and is enforced', async (t) => {
  const server = await startInProcess({ projectRoot: fixtureProject('tools'), env: toolEnv() });
  const { tools } = (await server.request('tools/list', { limit: 200 })).result as {
    tools: Array<{ name: string; inputSchema: unknown }>;
  };
  t.same(tools.find((tool) => tool.name === 'legacy-args')?.inputSchema, {
    type: 'object',
    properties: { id: { type: 'integer' } },
    required: ['id'],
  });
  t.match((await server.request('tools/call', { name: 'legacy-args', arguments: {} })).result, {
    isError: true,
    content: [{ type: 'text', text: /missing required argument 'id'/ }],
  });
  t.match((await server.request('tools/call', { name: 'legacy-args', arguments: { id: 3 } })).result, {
    isError: false,
  });
  await server.close();
});

t.test('a draft-07 inputSchema is validated with draft-07 rules (tuple items)', async (t) => {
  const server = await startInProcess({ projectRoot: fixtureProject('tools'), env: toolEnv() });
  t.match((await server.request('tools/call', { name: 'draft7', arguments: { items: ['a', 1] } })).result, {
    content: [{ text: 'draft7' }],
  });
  t.match((await server.request('tools/call', { name: 'draft7', arguments: { items: ['a', 'b'] } })).result, {
    isError: true,
    content: [{ text: /argument 'items\[1\]' must be number/ }],
  });
  t.match((await server.request('tools/call', { name: 'draft7', arguments: { items: ['a', 1, 'extra'] } })).result, {
    isError: true,
    content: [{ text: /^Invalid arguments for tool 'draft7'/ }],
  });
  await server.close();
});

t.test('tools run with the project root as working directory', async (t) => {
  const project = fixtureProject('tools');
  const server = await startInProcess({ projectRoot: project, env: toolEnv() });
  t.match((await server.request('tools/call', { name: 'cwd' })).result, {
    content: [{ text: `${realpathSync(project)}\n` }],
  });
  await server.close();
});

t.test('an unparsable .registry cache is ignored and rebuilt', async (t) => {
  const project = fixtureProject('tools');
  mkdirSync(join(project, '.registry'));
  writeFileSync(join(project, '.registry', 'tools.json'), '{"version":1,"items":[{"name":"ghost"');
  const server = await startInProcess({ projectRoot: project, env: toolEnv() });
  const { tools } = (await server.request('tools/list', { limit: 200 })).result as { tools: Array<{ name: string }> };
  t.notOk(tools.some((tool) => tool.name === 'ghost'));
  t.ok(tools.some((tool) => tool.name === 'echo-text'));
  await server.close();
});

t.test('a cache written for other files is not trusted: the fingerprint must match', async (t) => {
  const project = fixtureProject('tools');
  mkdirSync(join(project, '.registry'));
  writeFileSync(
    join(project, '.registry', 'tools.json'),
    JSON.stringify({
      format_version: 1,
      version: 1,
      generatedAt: new Date().toISOString(),
      items: [
        { name: 'ghost', path: 'x/tool.sh', description: '', inputSchema: { type: 'object' }, timeoutSecs: null },
      ],
      hash: 'abc',
      total: 1,
      fingerprint: 'stale',
    }),
  );
  const server = await startInProcess({ projectRoot: project, env: toolEnv() });
  const { tools } = (await server.request('tools/list', { limit: 200 })).result as { tools: Array<{ name: string }> };
  t.notOk(tools.some((tool) => tool.name === 'ghost'));
  await server.close();
});

t.test('more than 500 tools: a warning suggesting manual registration', async (t) => {
  const project = fixtureProject('tools');
  const tools = Array.from({ length: 501 }, (_, i) => ({ name: `bulk-${i}`, path: 'echo-text/tool.sh' }));
  writeFileSync(join(project, 'server.d', 'register.json'), JSON.stringify({ version: 1, tools }));
  const server = await startInProcess({ projectRoot: project, env: toolEnv() });
  const list = (await server.request('tools/list')).result as { _meta: Record<string, unknown> };
  t.equal(list._meta['mcpbash/total'], 501);
  t.match(server.stderr, /501 tools registered; above 500/);
  await server.close();
});

t.test('a meta.json that names its tool is all there is; one that does not is merged over the header', async (t) => {
  const server = await startInProcess({ projectRoot: fixtureProject('tools'), env: toolEnv() });
  const { tools } = (await server.request('tools/list', { limit: 200 })).result as {
    tools: Array<{ name: string; description: string; inputSchema: unknown }>;
  };
  const named = tools.find((candidate) => candidate.name === 'meta-beats-inline');
  t.same(named?.inputSchema, { type: 'object', properties: { fromMeta: { type: 'integer' } } }, 'the meta.json schema');
  t.equal(named?.description, '', 'the header is not read (D282, as 1.x): its description does not come through');
  // meta.json with neither name nor description: the header describes the tool, meta.json's keys win.
  const merged = tools.find((candidate) => candidate.name === 'header-fills-meta');
  t.equal(merged?.description, 'from the inline header');
  t.same(merged?.inputSchema, { type: 'object', properties: { fromMeta: { type: 'integer' } } }, 'meta.json wins');
  const call = await server.request('tools/call', { name: 'header-fills-meta', arguments: {} });
  t.match(call.result, { content: [{ type: 'text', text: 'header and meta' }] });
  await server.close();
});

t.test('a cache over MCPBASH_REGISTRY_MAX_BYTES is ignored, even when it matches the files', async (t) => {
  const project = fixtureProject('tools');
  const env = toolEnv({ MCPBASH_REGISTRY_MAX_BYTES: '150000' });
  const first = await startInProcess({ projectRoot: project, env });
  await first.request('tools/list');
  await first.close();
  const file = join(project, '.registry', 'tools.json');
  const cache = JSON.parse(readFileSync(file, 'utf8')) as {
    items: Array<{ name: string; description: string }>;
    hash: string;
  };
  const edited = cache.items.find((item) => item.name === 'echo-text');
  if (edited) edited.description = 'from the cache';
  cache.hash = itemsHash(cache.items);
  const listedDescription = async () => {
    const server = await startInProcess({ projectRoot: project, env });
    const { tools } = (await server.request('tools/list', { limit: 200 })).result as {
      tools: Array<{ name: string; description: string }>;
    };
    await server.close();
    return tools.find((tool) => tool.name === 'echo-text')?.description;
  };
  writeFileSync(file, JSON.stringify(cache));
  t.equal(await listedDescription(), 'from the cache', 'control: a current cache saves the first scan');
  writeFileSync(file, JSON.stringify({ ...cache, padding: 'x'.repeat(200_000) }));
  t.not(await listedDescription(), 'from the cache', 'the oversized cache is not read: the tools are scanned');
});
