import { mkdirSync, realpathSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { ListRootsRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import t from 'tap';
import { fixtureProject } from '../../helpers/fixtures.js';
import { startInProcess } from '../../helpers/in-process-server.js';
import type { Message } from '../../helpers/mcp-session.js';
import { toolEnv } from '../../helpers/run-binary.js';
import { scratchDir } from '../../helpers/scratch.js';
import { connectSdkClient, sdkEnv } from '../../helpers/sdk-client.js';

type Dump = { count: number; roots: Array<{ uri: string; name: string; path: string }>; paths: string[] };
const dump = (response: Message) =>
  JSON.parse((response.result as { content: Array<{ text: string }> }).content[0]?.text ?? '{}') as Dump;

function scratch(): string {
  return realpathSync(scratchDir('mcpbash roots '));
}

t.test('without client roots, tools see the fallback: the project root', async (t) => {
  const project = fixtureProject('tools');
  const server = await startInProcess({ projectRoot: project, env: toolEnv() });
  const roots = dump(await server.request('tools/call', { name: 'roots-dump' }));
  t.equal(roots.count, 1);
  t.equal(roots.roots[0]?.path, realpathSync(project));
  await server.close();
});

t.test(
  'MCPBASH_ROOTS: relative entries resolve against the project root (D14); a missing one voids the variable',
  async (t) => {
    const project = fixtureProject('tools');
    const server = await startInProcess({
      projectRoot: project,
      env: toolEnv({ MCPBASH_ROOTS: `data:${scratch()}` }),
    });
    const roots = dump(await server.request('tools/call', { name: 'roots-dump' }));
    t.same(roots.roots.map((root) => root.path)[0], realpathSync(join(project, 'data')));
    t.equal(roots.count, 2);
    await server.close();
    const bad = await startInProcess({
      projectRoot: project,
      env: toolEnv({ MCPBASH_ROOTS: 'data:/does/not/exist' }),
    });
    t.equal(dump(await bad.request('tools/call', { name: 'roots-dump' })).roots[0]?.path, realpathSync(project));
    t.match(bad.stderr, /MCPBASH_ROOTS entry "\/does\/not\/exist" does not exist/);
    await bad.close();
  },
);

t.test('config/roots.json: the fallback when MCPBASH_ROOTS is unset; tools see it in MCP_ROOTS_PATHS', async (t) => {
  const project = fixtureProject('tools');
  const absolute = scratch();
  mkdirSync(join(project, 'config'));
  writeFileSync(
    join(project, 'config', 'roots.json'),
    JSON.stringify({ roots: [{ path: 'data', name: 'Data' }, { path: absolute }, { path: 'missing-dir' }, 42] }),
  );
  const server = await startInProcess({ projectRoot: project, env: toolEnv() });
  t.teardown(() => server.close());
  const roots = dump(await server.request('tools/call', { name: 'roots-dump' }));
  t.same(
    roots.paths,
    [realpathSync(join(project, 'data')), absolute],
    'relative paths from the project root; missing and invalid entries skipped',
  );
  t.equal(roots.count, 2);
  t.same(
    roots.roots.map((root) => root.name),
    ['Data', absolute.split('/').pop()],
    'names kept, else the directory name',
  );
  t.match(server.stderr, /config\/roots\.json entry "missing-dir" does not exist/);
  const overridden = await startInProcess({ projectRoot: project, env: toolEnv({ MCPBASH_ROOTS: absolute }) });
  t.teardown(() => overridden.close());
  t.same(
    dump(await overridden.request('tools/call', { name: 'roots-dump' })).paths,
    [absolute],
    'MCPBASH_ROOTS comes first',
  );
});

t.test('client roots replace the fallback: percent-decoded, non-file and missing ones dropped', async (t) => {
  const project = fixtureProject('tools');
  const dir = scratch();
  const server = await startInProcess({
    projectRoot: project,
    env: toolEnv(),
    capabilities: { roots: { listChanged: true } },
  });
  const request = await server.waitFor((m) => m.method === 'roots/list');
  t.match(request.id, /^mcpbash-[A-Za-z0-9_-]{16}$/, 'server-to-client requests carry random ids of our own');
  server.send({
    jsonrpc: '2.0',
    id: request.id,
    result: {
      roots: [
        { uri: pathToFileURL(dir).href, name: 'Scratch' },
        { uri: 'https://example.com/not-local' },
        { uri: 'file:///no/such/dir' },
        { uri: pathToFileURL(dir).href, name: 'duplicate' },
      ],
    },
  });
  const roots = dump(await server.request('tools/call', { name: 'roots-dump' }));
  t.same(roots.roots, [{ uri: pathToFileURL(dir).href.replace(/%20/g, '%20'), name: 'Scratch', path: dir }]);
  t.match(pathToFileURL(dir).href, /%20/, 'the URI had percent-encoding to decode (D10)');
  await server.close();
});

t.test('roots/list_changed asks again (debounced); errors keep the roots', async (t) => {
  const project = fixtureProject('tools');
  const first = scratch();
  const second = scratch();
  const server = await startInProcess({
    projectRoot: project,
    env: toolEnv({ MCPBASH_ROOTS_DEBOUNCE_INTERVAL: '0.2' }),
    capabilities: { roots: { listChanged: true } },
  });
  const initial = await server.waitFor((m) => m.method === 'roots/list');
  server.send({ jsonrpc: '2.0', id: initial.id, result: { roots: [{ uri: pathToFileURL(first).href }] } });
  t.equal(dump(await server.request('tools/call', { name: 'roots-dump' })).roots[0]?.path, first);
  server.notify('notifications/roots/list_changed');
  server.notify('notifications/roots/list_changed');
  await server.waitFor(() => server.messages.filter((m) => m.method === 'roots/list').length >= 2, 5000);
  // A request per notification would follow at once: 0.3 s more (past the 0.2 s debounce)
  // shows there is just the one.
  await new Promise((resolve) => setTimeout(resolve, 300));
  const asks = server.messages.filter((m) => m.method === 'roots/list');
  t.equal(asks.length, 2, 'two notifications in a burst cause one new request');
  const again = asks[1] as Message;
  server.send({ jsonrpc: '2.0', id: again.id, result: { roots: [{ uri: pathToFileURL(second).href }] } });
  t.equal(dump(await server.request('tools/call', { name: 'roots-dump' })).roots[0]?.path, second);
  server.notify('notifications/roots/list_changed');
  const third = await server.waitFor((m) => m.method === 'roots/list' && m.id !== initial.id && m.id !== again.id);
  server.send({ jsonrpc: '2.0', id: third.id, error: { code: -32603, message: 'client broke' } });
  t.equal(
    dump(await server.request('tools/call', { name: 'roots-dump' })).roots[0]?.path,
    second,
    'an error keeps the roots',
  );
  await server.close();
});

t.test('an answer to the request before roots/list_changed is stale, even during the debounce', async (t) => {
  const stale = scratch();
  const fresh = scratch();
  const server = await startInProcess({
    projectRoot: fixtureProject('tools'),
    env: toolEnv({ MCPBASH_ROOTS_DEBOUNCE_INTERVAL: '1' }),
    capabilities: { roots: { listChanged: true } },
  });
  const initial = await server.waitFor((m) => m.method === 'roots/list');
  // The roots change while the first request is still unanswered.
  server.notify('notifications/roots/list_changed');
  const call = server.request('tools/call', { name: 'roots-dump' });
  let answered = false;
  void call.then(() => {
    answered = true;
  });
  server.send({ jsonrpc: '2.0', id: initial.id, result: { roots: [{ uri: pathToFileURL(stale).href }] } });
  const again = await server.waitFor(
    (m) => m.method === 'roots/list' && m.id !== initial.id,
    5000,
    'the debounced roots/list',
  );
  t.notOk(answered, 'the tool call still waits for the roots');
  server.send({ jsonrpc: '2.0', id: again.id, result: { roots: [{ uri: pathToFileURL(fresh).href }] } });
  t.same(
    dump(await call).roots.map((root) => root.path),
    [fresh],
    'the waiting call was not released with the stale answer',
  );
  t.same(
    dump(await server.request('tools/call', { name: 'roots-dump' })).roots.map((root) => root.path),
    [fresh],
    'and the stale answer never became the roots',
  );
  await server.close();
});

t.test('tools wait for the first roots answer (bounded)', async (t) => {
  const dir = scratch();
  const server = await startInProcess({
    projectRoot: fixtureProject('tools'),
    env: toolEnv(),
    capabilities: { roots: {} },
  });
  const request = await server.waitFor((m) => m.method === 'roots/list');
  const call = server.request('tools/call', { name: 'roots-dump' });
  // The stimulus, not a wait for an outcome: the client answers late.
  await new Promise((resolve) => setTimeout(resolve, 300));
  server.send({ jsonrpc: '2.0', id: request.id, result: { roots: [{ uri: pathToFileURL(dir).href }] } });
  t.equal(dump(await call).roots[0]?.path, dir, "the call ran with the client's roots");
  await server.close();
});

t.test('the official SDK client answers roots/list and the tool sees its roots', async (t) => {
  const dir = scratch();
  mkdirSync(join(dir, 'sub'));
  const { client } = await connectSdkClient({
    env: sdkEnv(toolEnv({ MCPBASH_PROJECT_ROOT: fixtureProject('tools') })),
    capabilities: { capabilities: { roots: { listChanged: true } } },
  });
  let asked!: () => void;
  const answered = new Promise<void>((resolve) => {
    asked = resolve;
  });
  client.setRequestHandler(ListRootsRequestSchema, async () => {
    asked();
    return { roots: [{ uri: pathToFileURL(join(dir, 'sub')).href, name: 'Sub' }] };
  });
  // The handler is set after connect: announce a change so the server asks again.
  await client.sendRootsListChanged();
  await answered;
  // Tool calls wait for the roots request in flight, so the call sees the answer.
  const result = await client.callTool({ name: 'roots-dump' });
  const roots = JSON.parse((result.content as Array<{ text: string }>)[0]?.text ?? '{}') as Dump;
  t.same(
    roots.roots.map((root) => [root.name, root.path]),
    [['Sub', join(dir, 'sub')]],
  );
  await client.close();
});

t.test(
  'a roots/list never answered times out; its late answer is ignored and the server keeps serving (D26)',
  async (t) => {
    const project = fixtureProject('tools');
    const late = scratch();
    const server = await startInProcess({
      projectRoot: project,
      env: toolEnv({ MCPBASH_ROOTS_REQUEST_TIMEOUT: '0.5', MCPBASH_LOG_LEVEL: 'debug' }),
      capabilities: { roots: {} },
    });
    const ask = await server.waitFor((m) => m.method === 'roots/list');
    await server.waitForStderr(/roots\/list failed \(roots\/list: no response within 500 ms\)/, 5000);
    t.pass('the timeout is noted');
    server.send({ jsonrpc: '2.0', id: ask.id, result: { roots: [{ uri: pathToFileURL(late).href }] } });
    t.same((await server.request('ping')).result, {}, 'still serving');
    t.equal(
      dump(await server.request('tools/call', { name: 'roots-dump' })).roots[0]?.path,
      realpathSync(project),
      'the late answer changed nothing',
    );
    t.match(server.stderr, new RegExp(`ignoring a response to unknown request id ${JSON.stringify(ask.id)}`));
    t.equal(server.running, true, 'the server did not exit (1.x did)');
    await server.close();
  },
);
