import t from 'tap';
import { fixtureProject } from '../../helpers/fixtures.js';
import { InProcessServer, startInProcess } from '../../helpers/in-process-server.js';
import { toolEnv } from '../../helpers/run-binary.js';

const nested = (levels: number) => `${'['.repeat(levels)}${']'.repeat(levels)}`;

t.test('one deeply nested line costs only its own reply: in-flight calls finish, the server serves on', async (t) => {
  const server = await startInProcess({ projectRoot: fixtureProject('tools'), env: toolEnv() });
  server.send({
    jsonrpc: '2.0',
    id: 'busy',
    method: 'tools/call',
    params: { name: 'sleeper', arguments: { seconds: 1 } },
  });
  server.writeRaw(`{"jsonrpc":"2.0","id":"deep","method":"logging/setLevel","params":{"level":${nested(5000)}}}`);
  server.writeRaw(`{"jsonrpc":"2.0","method":"notifications/message","params":{"data":${nested(5000)}}}`);
  const refused = await server.waitFor((m) => m.id === 'deep');
  t.match(refused.error, { code: -32600, data: /nested 5002 levels deep/ });
  t.same((await server.request('ping')).result, {}, 'ping is answered after it');
  const busy = await server.waitFor((m) => m.id === 'busy');
  t.match(busy.result, { content: [{ text: 'slept 1' }], isError: false }, 'the call in flight was not lost');
  t.same(server.protocolViolations, []);
  t.equal((await server.close()).code, 0, 'the server exits normally at end of input');
  t.notMatch(server.stderr, /RangeError|Maximum call stack/);
});

t.test('initialize with a deeply nested protocolVersion is refused; initialize then works', async (t) => {
  const server = new InProcessServer({ projectRoot: fixtureProject('lifecycle') });
  server.writeRaw(
    `{"jsonrpc":"2.0","id":"deep-init","method":"initialize",` +
      `"params":{"protocolVersion":${nested(5000)},"capabilities":{}}}`,
  );
  t.match((await server.waitFor((m) => m.id === 'deep-init')).error, { code: -32600 });
  const result = await server.initialize('2025-06-18');
  t.equal(result.protocolVersion, '2025-06-18');
  t.equal((await server.close()).code, 0);
});

t.test('request ids beyond 2^53 are echoed exactly as sent', async (t) => {
  const server = await startInProcess({ projectRoot: fixtureProject('lifecycle') });
  const ids = ['9007199254740993', '18446744073709551615', '1.0', '-12e3'];
  for (const id of ids) server.writeRaw(`{"jsonrpc":"2.0","id":${id},"method":"ping"}`);
  server.writeRaw('{"jsonrpc":"2.0","id":9007199254740995,"method":"no/such/method"}');
  server.writeRaw('{"jsonrpc":"2.0","id":"last","method":"ping"}');
  await server.waitFor((m) => m.id === 'last');
  for (const id of ids) t.ok(server.lines.includes(`{"jsonrpc":"2.0","id":${id},"result":{}}`), `id ${id} as sent`);
  t.ok(
    server.lines.some((line) => line.startsWith('{"jsonrpc":"2.0","id":9007199254740995,"error":{"code":-32601')),
    'errors echo the id exactly too',
  );
  await server.close();
});
