import t from 'tap';
import { fixtureProject } from '../../helpers/fixtures.js';
import { InProcessServer, startInProcess } from '../../helpers/in-process-server.js';
import { startInitialized } from '../../helpers/mcp-process.js';
import { eventually } from '../../helpers/processes.js';
import { isolatedEnv, toolEnv } from '../../helpers/run-binary.js';

const project = fixtureProject('lifecycle');

t.test('BOM, CRLF, blank lines and surrounding spaces are tolerated', async (t) => {
  const server = new InProcessServer({ projectRoot: project });
  server.writeRaw('\uFEFF{"jsonrpc":"2.0","id":1,"method":"ping"}\r');
  server.writeRaw('');
  server.writeRaw('   ');
  server.writeRaw('   {"jsonrpc":"2.0","id":2,"method":"ping"}   \r');
  t.same((await server.waitFor((m) => m.id === 1)).result, {});
  t.same((await server.waitFor((m) => m.id === 2)).result, {});
  await server.close();
  t.equal(server.messages.length, 2, 'blank lines are not answered');
});

t.test('invalid JSON is -32700 with id null, and the server keeps serving', async (t) => {
  const server = await startInProcess({ projectRoot: project });
  server.writeRaw('{this is not json');
  const parseError = await server.waitFor((m) => m.error?.code === -32700);
  t.equal(parseError.id, null);
  t.equal(parseError.error?.message, 'Parse error');
  t.same((await server.request('ping')).result, {});
  await server.close();
});

t.test(
  'a broken line is answered under an id only when the id member is complete and names no open request',
  async (t) => {
    const server = await startInitialized({ projectRoot: fixtureProject('tools'), env: toolEnv() });
    server.send({
      jsonrpc: '2.0',
      id: 'A',
      method: 'tools/call',
      params: { name: 'sleeper', arguments: { seconds: 1 } },
    });
    server.writeRaw('{"id":"A"}{"x":1}');
    server.writeRaw('{"jsonrpc":"2.0","id":12');
    server.writeRaw('{"jsonrpc":"2.0","id":"B","method":');
    const answered = await server.waitFor((m) => m.id === 'A', 10_000, 'the real answer to A');
    t.match(answered.result, { content: [{ text: 'slept 1' }], isError: false });
    t.same(
      server.messages.filter((m) => m.error?.code === -32700).map((m) => m.id),
      [null, null, 'B'],
      'A is still running: its id is not reused; a cut number is no id; a complete one is kept',
    );
    t.same((await server.request('ping')).result, {});
    t.equal(server.messages.filter((m) => m.id === 'A').length, 1, 'A is answered once');
    await server.close();
  },
);

t.test('valid JSON that is not a request is -32600', async (t) => {
  const server = await startInProcess({ projectRoot: project });
  for (const line of ['42', '"text"', 'null', '{"jsonrpc":"2.0"}', '{"jsonrpc":"2.0","method":7,"id":3}'])
    server.writeRaw(line);
  await server.waitFor(() => server.messages.filter((m) => m.error?.code === -32600).length >= 5, 5000, 'five errors');
  const invalid = server.messages.filter((m) => m.error?.code === -32600);
  t.equal(invalid.length, 5);
  t.same(
    invalid.map((m) => m.id),
    [null, null, null, null, 3],
  );
  await server.close();
});

t.test('invalid UTF-8 is tolerated as 1.x did: bad bytes become U+FFFD and the message is handled', async (t) => {
  const server = await startInProcess({ projectRoot: fixtureProject('tools'), env: toolEnv() });
  server.writeRaw(
    Buffer.concat([
      Buffer.from('{"jsonrpc":"2.0","id":77,"method":"ping","params":{"x":"'),
      Buffer.from([0xc3, 0x28]),
      Buffer.from('"}}'),
    ]),
  );
  t.same((await server.waitFor((m) => m.id === 77)).result, {});
  server.writeRaw(
    Buffer.concat([
      Buffer.from(
        '{"jsonrpc":"2.0","id":78,"method":"tools/call","params":{"name":"echo-json","arguments":{"text":"caf',
      ),
      Buffer.from([0xe9]),
      Buffer.from('!"}}}'),
    ]),
  );
  const call = await server.waitFor((m) => m.id === 78);
  t.same(call.result && (call.result as { structuredContent: { args: unknown } }).structuredContent.args, {
    text: 'caf\uFFFD!',
  });
  await server.close();
});

t.test('a notification is never answered, however malformed', async (t) => {
  const server = await startInProcess({ projectRoot: project, env: isolatedEnv({ MCPBASH_LOG_LEVEL: 'debug' }) });
  for (const line of [
    '{"jsonrpc":"2.0","method":"notifications/cancelled","params":"scalar"}',
    '{"jsonrpc":"1.0","method":"notifications/cancelled"}',
    '{"jsonrpc":"2.0","method":17}',
    '{"jsonrpc":"2.0","method":"no/such/notification","params":[1]}',
  ])
    server.writeRaw(line);
  t.same((await server.request('ping')).result, {});
  await server.close(); // everything it wrote is in
  t.equal(server.messages.filter((m) => m.method === undefined).length, 2, 'only initialize and ping were answered');
  t.match(
    server.stderr,
    /dropped a malformed notification "notifications\/cancelled": params must be an object or an array/,
  );
  t.match(server.stderr, /dropped a malformed notification "notifications\/cancelled": jsonrpc must be "2\.0"/);
});

t.test('a response to an id the server never used is ignored (noted at debug)', async (t) => {
  const server = await startInProcess({ projectRoot: project, env: isolatedEnv({ MCPBASH_LOG_LEVEL: 'debug' }) });
  server.send({ jsonrpc: '2.0', id: 4242, result: { roots: [] } });
  server.send({ jsonrpc: '2.0', id: 'x-1', error: { code: -1, message: 'nope' } });
  t.same((await server.request('ping')).result, {});
  t.equal(server.messages.filter((m) => m.error !== undefined).length, 0, 'no error reply');
  t.ok(await eventually(() => /ignoring a response to unknown request id 4242/.test(server.stderr)));
  await server.close();
});

t.test('a line over the size limit is refused with bounded memory and the server keeps serving', async (t) => {
  const server = await startInProcess({
    projectRoot: project,
    env: isolatedEnv({ MCPBASH_MAX_MESSAGE_BYTES: String(1024 * 1024) }),
  });
  const filler = 'a'.repeat(64 * 1024);
  server.writeRaw('{"jsonrpc":"2.0","id":"huge","method":"ping","params":{"blob":"', true);
  for (let i = 0; i < 8 * 16; i += 1) server.writeRaw(filler, true); // 8 MiB
  server.writeRaw('"}');
  const reply = await server.waitFor((m) => m.id === 'huge', 30_000);
  t.match(reply.error, { code: -32600, message: /exceeds the limit of 1048576 bytes \(MCPBASH_MAX_MESSAGE_BYTES\)/ });
  t.same((await server.request('ping')).result, {});
  await server.close();
});

t.test('EOF in the middle of a line: the partial line is still answered, then the server exits 0', async (t) => {
  const server = await startInProcess({ projectRoot: project });
  server.writeRaw('{"jsonrpc":"2.0","id":"last","method":"ping"}', true);
  server.closeInput();
  t.same((await server.waitFor((m) => m.id === 'last')).result, {});
  t.equal((await server.exited).code, 0);
  const truncated = await startInProcess({ projectRoot: project });
  truncated.writeRaw('{"jsonrpc":"2.0","id":"cut","meth', true);
  truncated.closeInput();
  t.match((await truncated.waitFor((m) => m.id === 'cut')).error, { code: -32700 });
  t.equal((await truncated.exited).code, 0);
});

t.test('stdout carries only protocol lines, whatever the input', async (t) => {
  const server = new InProcessServer({ projectRoot: project });
  for (const line of [
    '',
    'junk',
    '{"id":1}',
    '[1,2]',
    '\u0000\u0001',
    '{"jsonrpc":"2.0","id":2,"method":"initialize","params":{}}',
  ])
    server.writeRaw(line);
  await server.waitFor((m) => m.id === 2);
  await server.close();
  t.same(server.protocolViolations, []);
  t.notOk(server.messages.some((m) => m.jsonrpc !== '2.0' && !Array.isArray(m)));
});

t.test('SIGTERM, SIGINT and SIGHUP end the server with 128+signal', async (t) => {
  for (const [signal, code] of [
    ['SIGTERM', 143],
    ['SIGINT', 130],
    ['SIGHUP', 129],
  ] as const) {
    const server = await startInitialized({ projectRoot: project });
    server.child.kill(signal);
    const ended = await server.exited;
    t.equal(ended.code, code, signal);
  }
});
