import t from 'tap';
import { fixtureProject } from '../../helpers/fixtures.js';
import { startInitialized } from '../../helpers/mcp-process.js';
import { toolEnv } from '../../helpers/run-binary.js';

t.test('1,000 pings are answered promptly while 16 slow tool calls hold every slot', async (t) => {
  const server = await startInitialized({ projectRoot: fixtureProject('tools'), env: toolEnv() });
  const slow = Array.from({ length: 16 }, (_, i) =>
    server.request('tools/call', { name: 'sleeper', arguments: { seconds: 3 } }, `slow-${i}`, 30_000),
  );
  await new Promise((resolve) => setTimeout(resolve, 300));
  const started = Date.now();
  const pings = Array.from({ length: 1000 }, (_, i) => server.request('ping', undefined, `ping-${i}`));
  const replies = await Promise.all(pings);
  const elapsed = Date.now() - started;
  t.ok(
    replies.every((reply) => reply.error === undefined),
    'every ping answered',
  );
  t.ok(elapsed < 2500, `1,000 pings took ${elapsed} ms with the slow calls still running`);
  const slowReplies = await Promise.all(slow);
  t.ok(
    slowReplies.every((reply) => (reply.result as { isError: boolean }).isError === false),
    'the slow calls then finish',
  );
  t.same(server.protocolViolations, []);
  await server.close();
});

t.test('beyond MCPBASH_MAX_CONCURRENT_REQUESTS calls queue (never dropped) and run in order', async (t) => {
  const server = await startInitialized({
    projectRoot: fixtureProject('tools'),
    env: toolEnv({ MCPBASH_MAX_CONCURRENT_REQUESTS: '2' }),
  });
  const started = Date.now();
  const calls = Array.from({ length: 6 }, (_, i) =>
    server.request('tools/call', { name: 'sleeper', arguments: { seconds: 0.5 } }, `q-${i}`, 30_000),
  );
  const order: string[] = [];
  for (const call of calls) void call.then((reply) => order.push(String(reply.id)));
  const replies = await Promise.all(calls);
  const elapsed = Date.now() - started;
  t.ok(
    replies.every((reply) => reply.result !== undefined),
    'all six answered',
  );
  t.ok(elapsed >= 1400, `three waves of two: ${elapsed} ms`);
  t.same((await server.request('ping')).result, {}, 'ping is never queued');
  await server.close();
});
