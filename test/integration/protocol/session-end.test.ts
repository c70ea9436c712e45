import { readFileSync } from 'node:fs';
import t from 'tap';
import { fixtureProject } from '../../helpers/fixtures.js';
import { McpProcess, startInitialized } from '../../helpers/mcp-process.js';
import { eventually, isAlive, waitForExit } from '../../helpers/processes.js';
import { isolatedEnv } from '../../helpers/run-binary.js';

const project = fixtureProject('lifecycle');

t.test('orphan detection: when the process that started the server dies, the server exits', async (t) => {
  // The wrapper shell stays the server's parent (a foreground child: no exec, since a
  // command follows); killing it re-parents the server, whose stdio pipes are still ours.
  const wrapper = '"$@"; exit $?';
  const server = new McpProcess({
    projectRoot: project,
    env: isolatedEnv({ MCPBASH_ORPHAN_CHECK_INTERVAL: '1', MCPBASH_IDLE_TIMEOUT: '0' }),
    via: ['bash', '-c', wrapper, 'wrapper'],
  });
  await server.initialize();
  const wrapperPid = server.child.pid as number;
  const serverPid = Number(
    readFileSync(`/proc/${wrapperPid}/task/${wrapperPid}/children`, 'utf8').trim().split(/\s+/)[0],
  );
  t.ok(isAlive(serverPid), `the server ${serverPid} runs under the wrapper ${wrapperPid}`);
  server.child.kill('SIGKILL');
  t.ok(await waitForExit(serverPid, 5000), 'the orphaned server exited within a few check intervals');
});

t.test('MCPBASH_IDLE_TIMEOUT: no input for that long ends the server with 0', async (t) => {
  const server = await startInitialized({ projectRoot: project, env: isolatedEnv({ MCPBASH_IDLE_TIMEOUT: '1' }) });
  const started = Date.now();
  const ended = await server.exited;
  t.equal(ended.code, 0);
  t.ok(Date.now() - started < 5000, 'soon after the timeout');
  t.match(server.stderr, /no input for 1s; exiting \(MCPBASH_IDLE_TIMEOUT\)/);
});

t.test('shutdown watchdog: shutdown without exit still ends the server (MCPBASH_SHUTDOWN_TIMEOUT)', async (t) => {
  const server = await startInitialized({ projectRoot: project, env: isolatedEnv({ MCPBASH_SHUTDOWN_TIMEOUT: '1' }) });
  t.same((await server.request('shutdown')).result, {});
  const asked = Date.now();
  const ended = await server.exited;
  t.equal(ended.code, 0, 'a normal end: the session drains and exits 0');
  t.ok(Date.now() - asked >= 900, 'not before the timeout');
  t.ok(Date.now() - asked < 5000, 'soon after it');
});

t.test('the idle timer does not fire while the client keeps talking', async (t) => {
  const server = new McpProcess({ projectRoot: project, env: isolatedEnv({ MCPBASH_IDLE_TIMEOUT: '1' }) });
  await server.initialize();
  // Not a wait for an outcome: the pauses are the client talking, 1.8 s against a 1 s timeout.
  for (let i = 0; i < 6; i += 1) {
    await new Promise((resolve) => setTimeout(resolve, 300));
    t.same((await server.request('ping')).result, {});
  }
  t.ok(await eventually(() => server.child.exitCode !== null, 5000), 'then it times out');
});
