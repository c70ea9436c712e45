import t from 'tap';
import { fixtureProject } from '../../helpers/fixtures.js';
import { startInProcess } from '../../helpers/in-process-server.js';
import { toolEnv } from '../../helpers/run-binary.js';

t.test('lists are capped by MCPBASH_REGISTRY_MAX_BYTES, other responses by MCPBASH_MAX_TOOL_OUTPUT_SIZE', async (t) => {
  const server = await startInProcess({
    projectRoot: fixtureProject('tools'),
    env: toolEnv({ MCPBASH_MAX_TOOL_OUTPUT_SIZE: '600' }),
  });
  const list = await server.request('tools/list', { limit: 200 });
  t.ok(JSON.stringify(list).length > 600, 'the list is larger than the tool output cap');
  t.ok(list.result, 'and still sent');
  // ~250 bytes of stdout pass the tool output cap, but text plus structuredContent do not.
  const call = await server.request('tools/call', { name: 'echo-json', arguments: { text: 'x'.repeat(200) } });
  t.match(call.error, { code: -32603, message: 'Response exceeded response size limit', data: { limit: 600 } });
  await server.close();
});

t.test('an error whose data would exceed the cap is sent without its data', async (t) => {
  const server = await startInProcess({
    projectRoot: fixtureProject('tools'),
    env: toolEnv({ MCPBASH_MAX_TOOL_OUTPUT_SIZE: '2000' }),
  });
  const small = await server.request('tools/call', { name: 'fail-with-data', arguments: { size: 100 } });
  t.same(small.error, { code: -32050, message: 'failed with data', data: 'd'.repeat(100) }, 'small data is kept');
  const big = await server.request('tools/call', { name: 'fail-with-data', arguments: { size: 5000 } });
  t.same(big.error, { code: -32050, message: 'failed with data' });
  t.match(server.stderr, /its data was dropped/);
  t.ok(
    server.messages.every((m) => JSON.stringify(m).length <= 2000),
    'nothing oversized went out',
  );
  await server.close();
});
