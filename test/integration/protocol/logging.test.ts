import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import t from 'tap';
import { fixtureProject } from '../../helpers/fixtures.js';
import { startInProcess } from '../../helpers/in-process-server.js';
import type { McpSession } from '../../helpers/mcp-session.js';
import { eventually } from '../../helpers/processes.js';
import { isolatedEnv } from '../../helpers/run-binary.js';

/**
 * Whether the server logs at debug on stderr: a stray response is noted at debug only. Ends
 * the session, so that all of its stderr is in.
 */
async function logsDebug(server: McpSession): Promise<boolean> {
  server.send({ jsonrpc: '2.0', id: 9999, result: {} });
  await server.request('ping');
  await server.close();
  return /debug: mcp\.rpc: ignoring a response to unknown request id 9999/.test(server.stderr);
}

t.test('the start-up level comes from MCPBASH_LOG_LEVEL (true/1 mean debug, false/0 info)', async (t) => {
  const project = fixtureProject('lifecycle');
  for (const [value, debug] of [
    ['debug', true],
    ['true', true],
    ['1', true],
    ['DEBUG', true],
    ['false', false],
    ['0', false],
    ['info', false],
  ] as const) {
    const server = await startInProcess({ projectRoot: project, env: isolatedEnv({ MCPBASH_LOG_LEVEL: value }) });
    t.equal(await logsDebug(server), debug, `MCPBASH_LOG_LEVEL=${value}`);
    await server.close();
  }
});

t.test('a server.d/.debug file means debug when MCPBASH_LOG_LEVEL is unset', async (t) => {
  const project = fixtureProject('lifecycle');
  const plain = await startInProcess({ projectRoot: project });
  t.notOk(await logsDebug(plain), 'no file: info');
  await plain.close();
  writeFileSync(join(project, 'server.d', '.debug'), '');
  const marked = await startInProcess({ projectRoot: project });
  t.ok(await logsDebug(marked), '.debug: debug');
  await marked.close();
  const overridden = await startInProcess({ projectRoot: project, env: isolatedEnv({ MCPBASH_LOG_LEVEL: 'info' }) });
  t.notOk(await logsDebug(overridden), 'the variable wins over the file');
  await overridden.close();
});

t.test('stderr keeps its own threshold whatever the client sets with logging/setLevel', async (t) => {
  const server = await startInProcess({ projectRoot: fixtureProject('lifecycle'), capabilities: { roots: {} } });
  const ask = await server.waitFor((m) => m.method === 'roots/list');
  t.same((await server.request('logging/setLevel', { level: 'emergency' })).result, {});
  server.send({ jsonrpc: '2.0', id: ask.id, result: { notRoots: true } });
  t.ok(
    await eventually(() =>
      /warning: mcp\.roots: the client answered roots\/list without a roots array/.test(server.stderr),
    ),
    'the warning reached stderr',
  );
  await server.request('ping');
  t.equal(server.notifications('notifications/message').length, 0, 'a client at emergency gets nothing');

  t.same((await server.request('logging/setLevel', { level: 'debug' })).result, {});
  t.notOk(await logsDebug(server), 'a client at debug does not make stderr verbose');
  await server.close();
});
