import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import t from 'tap';
import { fixtureProject } from '../../helpers/fixtures.js';
import { startInProcess } from '../../helpers/in-process-server.js';
import { startInitialized } from '../../helpers/mcp-process.js';
import { toolEnv } from '../../helpers/run-binary.js';

t.test('lists are capped by MCPBASH_REGISTRY_MAX_BYTES, tool output by MCPBASH_MAX_TOOL_OUTPUT_SIZE', async (t) => {
  const server = await startInProcess({
    projectRoot: fixtureProject('tools'),
    env: toolEnv({ MCPBASH_MAX_TOOL_OUTPUT_SIZE: '600' }),
  });
  const list = await server.request('tools/list', { limit: 200 });
  t.ok(JSON.stringify(list).length > 600, 'the list is larger than the tool output cap');
  t.ok(list.result, 'and still sent');
  // ~250 bytes of stdout: the answer carries them twice (text and structuredContent), and
  // the cap is on what the tool printed (D285).
  const call = await server.request('tools/call', { name: 'echo-json', arguments: { text: 'x'.repeat(200) } });
  t.match(call.result, { isError: false, structuredContent: { args: { text: 'x'.repeat(200) } } });
  t.ok(JSON.stringify(call).length > 600, 'an answer larger than the output cap');
  const over = await server.request('tools/call', { name: 'echo-json', arguments: { text: 'x'.repeat(600) } });
  t.match(over.error, { code: -32603, message: 'Tool output exceeded 600 bytes' });
  await server.close();
});

t.test('a JSON object just under the output cap is answered whole, though it travels twice (binary)', async (t) => {
  const project = fixtureProject('tools');
  const dir = join(project, 'tools', 'big-json');
  mkdirSync(dir);
  writeFileSync(join(dir, 'tool.meta.json'), JSON.stringify({ name: 'big-json', description: 'big JSON' }));
  // {"t":"\"\"...\""}: 2 bytes per pair in the output, 4 in the text copy of the answer.
  writeFileSync(join(dir, 'tool.sh'), `printf '{"t":"'; yes '\\"' | head -n 500000 | tr -d '\\n'; printf '"}'\n`);
  const server = await startInitialized({
    projectRoot: project,
    env: toolEnv({ MCPBASH_MAX_TOOL_OUTPUT_SIZE: String(1024 * 1024) }),
  });
  const call = await server.request('tools/call', { name: 'big-json' }, 'big', 60_000);
  const result = call.result as { structuredContent: { t: string }; content: Array<{ text: string }> };
  t.equal(result?.structuredContent?.t, '"'.repeat(500_000), 'structuredContent whole');
  t.equal(result?.content[0]?.text.length, 2 * 500_000 + 8, 'and the text copy of all the output');
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
