import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import t from 'tap';
import { fixtureProject } from '../../helpers/fixtures.js';
import { McpProcess, startInitialized } from '../../helpers/mcp-process.js';
import { eventually, isAlive, isGroupAlive, processGroupOf, waitForExit } from '../../helpers/processes.js';
import { toolEnv } from '../../helpers/run-binary.js';
import { scratchDir } from '../../helpers/scratch.js';

const markerDir = scratchDir('mcpbash-markers-');
const marker = (name: string) => join(markerDir, name);
const pidOf = (name: string) => Number(readFileSync(`${marker(name)}.pid`, 'utf8').trim());

t.test('notifications/cancelled: no response, the marker first, then the process group is gone (D25)', async (t) => {
  const server = await startInitialized({ projectRoot: fixtureProject('tools'), env: toolEnv() });
  const id = 'to-cancel';
  server.send({
    jsonrpc: '2.0',
    id,
    method: 'tools/call',
    params: { name: 'slow', arguments: { seconds: 60, marker: marker('cancel') } },
  });
  t.ok(await eventually(() => existsSync(`${marker('cancel')}.pid`)), 'the tool started');
  const pid = pidOf('cancel');
  server.notify('notifications/cancelled', { requestId: id, reason: 'user pressed stop' });
  t.ok(await waitForExit(pid, 5000), 'the tool process is gone');
  t.ok(
    await eventually(() => existsSync(`${marker('cancel')}.cancelled`)),
    'it saw mcp_is_cancelled true when TERM arrived',
  );
  t.same((await server.request('ping')).result, {});
  server.notify('notifications/cancelled', { requestId: 'never-existed' });
  server.notify('notifications/cancelled', { requestId: id });
  t.same((await server.request('ping')).result, {}, 'unknown or finished ids are ignored');
  await server.close(); // all it wrote is in
  t.notOk(
    server.messages.some((m) => m.id === id),
    'no response at all for the cancelled id',
  );
});

t.test('a background child the tool leaves behind does not outlive the call', async (t) => {
  const server = await startInitialized({ projectRoot: fixtureProject('tools'), env: toolEnv() });
  const childFile = marker('grandchild');
  const result = await server.request('tools/call', { name: 'grandchild', arguments: { marker: childFile } });
  t.match(result.result, { content: [{ text: 'left a child behind' }], isError: false });
  const child = Number(readFileSync(childFile, 'utf8').trim());
  t.ok(await waitForExit(child, 5000), `orphaned sleep ${child} was stopped`);
  await server.close();
});

t.test('a client that disconnects while tools run leaves no processes behind', async (t) => {
  const server = await startInitialized({
    projectRoot: fixtureProject('tools'),
    env: toolEnv({ MCPBASH_SHUTDOWN_TIMEOUT: '1' }),
  });
  for (let i = 0; i < 3; i += 1) {
    server.send({
      jsonrpc: '2.0',
      id: `bg-${i}`,
      method: 'tools/call',
      params: { name: 'slow', arguments: { seconds: 60, marker: marker(`disconnect-${i}`) } },
    });
  }
  t.ok(
    await eventually(() => [0, 1, 2].every((i) => existsSync(`${marker(`disconnect-${i}`)}.pid`))),
    'all three started',
  );
  const pids = [0, 1, 2].map((i) => pidOf(`disconnect-${i}`));
  server.child.stdout.destroy();
  server.closeInput();
  const ended = await server.exited;
  t.equal(ended.code, 0);
  for (const pid of pids) t.notOk(isAlive(pid), `tool ${pid} is gone`);
});

t.test('SIGTERM, SIGINT and SIGHUP during tool calls stop every process group and exit 128+signal', async (t) => {
  for (const [signal, code] of [
    ['SIGTERM', 143],
    ['SIGINT', 130],
    ['SIGHUP', 129],
  ] as const) {
    const server = await startInitialized({ projectRoot: fixtureProject('tools'), env: toolEnv() });
    const name = `signal-${signal}`;
    server.send({
      jsonrpc: '2.0',
      id: name,
      method: 'tools/call',
      params: { name: 'slow', arguments: { seconds: 60, marker: marker(name) } },
    });
    t.ok(await eventually(() => existsSync(`${marker(name)}.pid`)));
    const pid = pidOf(name);
    const group = processGroupOf(pid) as number;
    server.child.kill(signal);
    t.equal((await server.exited).code, code, signal);
    t.notOk(isAlive(pid), `${signal}: the tool is gone`);
    t.notOk(isGroupAlive(group), `${signal}: so is its process group`);
  }
});

t.test('a signal during the drain after end of input stops at once (D30)', async (t) => {
  const server = await startInitialized({
    projectRoot: fixtureProject('tools'),
    env: toolEnv({ MCPBASH_SHUTDOWN_TIMEOUT: '30' }),
  });
  server.send({
    jsonrpc: '2.0',
    id: 'draining',
    method: 'tools/call',
    params: { name: 'slow', arguments: { seconds: 60, marker: marker('drain') } },
  });
  t.ok(await eventually(() => existsSync(`${marker('drain')}.pid`)));
  const pid = pidOf('drain');
  const group = processGroupOf(pid) as number;
  server.closeInput();
  // Nothing marks the start of the drain; a server that stopped the call at end of input
  // would have done so within a few milliseconds.
  await new Promise((resolve) => setTimeout(resolve, 300));
  t.ok(isAlive(pid), 'the drain lets the call run');
  const signalled = Date.now();
  server.child.kill('SIGTERM');
  const ended = await server.exited;
  t.equal(ended.code, 143, 'the signal decides the exit status');
  t.ok(
    Date.now() - signalled < 4000,
    `stopped at once (${Date.now() - signalled} ms), not after MCPBASH_SHUTDOWN_TIMEOUT`,
  );
  t.notOk(isGroupAlive(group), "the tool's process group is gone");
  t.notOk(
    server.messages.some((m) => m.id === 'draining'),
    'the aborted call gets no answer',
  );
});

t.test('a tool that ignores TERM is KILLed after the grace period when cancelled', async (t) => {
  const server = await startInitialized({
    projectRoot: fixtureProject('tools'),
    env: toolEnv({ MCPBASH_KILL_GRACE_SECS: '1.5' }),
  });
  server.send({
    jsonrpc: '2.0',
    id: 'stubborn',
    method: 'tools/call',
    params: { name: 'stubborn', arguments: { marker: marker('stubborn') } },
  });
  t.ok(await eventually(() => existsSync(`${marker('stubborn')}.pid`)));
  const pid = pidOf('stubborn');
  const group = processGroupOf(pid) as number;
  server.notify('notifications/cancelled', { requestId: 'stubborn' });
  // TERM goes out at once on cancel; a tool that obeyed it would be gone well within 0.7 s,
  // the KILL comes at 1.5 s.
  await new Promise((resolve) => setTimeout(resolve, 700));
  t.ok(isAlive(pid), 'TERM alone does not stop it');
  t.ok(await eventually(() => !isGroupAlive(group), 5000), 'KILL after the grace period does');
  t.same((await server.request('ping')).result, {});
  t.notOk(
    server.messages.some((m) => m.id === 'stubborn'),
    'no response for the cancelled call',
  );
  await server.close();
});

t.test('end of input lets running calls finish (bounded by MCPBASH_SHUTDOWN_TIMEOUT) before exiting', async (t) => {
  const server = new McpProcess({ projectRoot: fixtureProject('tools'), env: toolEnv() });
  await server.initialize();
  server.send({
    jsonrpc: '2.0',
    id: 'piped',
    method: 'tools/call',
    params: { name: 'sleeper', arguments: { seconds: 0.5 } },
  });
  server.closeInput();
  const response = await server.waitFor((m) => m.id === 'piped');
  t.match(response.result, { content: [{ text: 'slept 0.5' }] }, 'printf requests | mcp-bash still gets its answers');
  t.equal((await server.exited).code, 0);
});
