import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import t from 'tap';
import { fixtureProject } from '../../helpers/fixtures.js';
import { startInitialized } from '../../helpers/mcp-process.js';
import { eventually, isAlive, waitForExit } from '../../helpers/processes.js';
import { toolEnv } from '../../helpers/run-binary.js';
import { scratchDir } from '../../helpers/scratch.js';

const markers = scratchDir('mcpbash-containment-');
const hasSetsid = spawnSync('setsid', ['true']).status === 0;
const pidIn = (file: string) => Number(readFileSync(file, 'utf8').trim());
const strays: number[] = [];
t.teardown(() => {
  for (const pid of strays) {
    try {
      process.kill(pid, 'SIGKILL');
    } catch {
      // already gone
    }
  }
});

const MARKER_ARG = [
  `marker="$(printf '%s' "\${MCP_TOOL_ARGS_JSON:-{\\}}" | `,
  `sed -n 's/.*"marker":"\\([^"]*\\)".*/\\1/p')"`,
].join('');

/** A copy of the tools fixture with extra tools (name -> [timeoutSecs, script body]). */
function projectWith(tools: Record<string, [number, string]>): string {
  const root = fixtureProject('tools');
  for (const [name, [timeoutSecs, body]] of Object.entries(tools)) {
    const dir = join(root, 'tools', name);
    mkdirSync(dir);
    writeFileSync(join(dir, 'tool.meta.json'), JSON.stringify({ name, description: name, timeoutSecs }));
    writeFileSync(join(dir, 'tool.sh'), `#!/usr/bin/env bash\n${MARKER_ARG}\n${body}\n`, { mode: 0o755 });
  }
  return root;
}

// A daemon that escapes the tool's process group (setsid) but keeps the tool's stdout open;
// the tool goes on once the daemon is in its own session.
const DAEMON = [
  'setsid bash -c \'printf "%s\\n" "$$" >"$0.daemon"; exec sleep 40\' "$marker" &',
  'until [ -s "$marker.daemon" ]; do sleep 0.01; done',
  'echo started',
].join('\n');

t.test(
  'a setsid daemon holding stdout open does not hold the call once the tool exits',
  { skip: !hasSetsid },
  async (t) => {
    const server = await startInitialized({ projectRoot: projectWith({ daemon: [5, DAEMON] }), env: toolEnv() });
    const marker = join(markers, 'quick');
    const started = Date.now();
    const reply = await server.request('tools/call', { name: 'daemon', arguments: { marker } });
    strays.push(pidIn(`${marker}.daemon`));
    t.match(reply.result, { content: [{ text: 'started\n' }], isError: false });
    t.ok(Date.now() - started < 4000, `answered in ${Date.now() - started} ms, not when the daemon exits (40 s)`);
    t.match(
      server.stderr,
      /daemon: a background process that left its process group .* still held its stdout or stderr open/,
    );
    await server.close();
  },
);

t.test('with such a daemon, the timeout ends the call at the timeout', { skip: !hasSetsid }, async (t) => {
  const server = await startInitialized({
    projectRoot: projectWith({ 'daemon-then-sleep': [2, `${DAEMON}\nsleep 30`] }),
    env: toolEnv(),
  });
  const marker = join(markers, 'timeout');
  const started = Date.now();
  const reply = await server.request(
    'tools/call',
    { name: 'daemon-then-sleep', arguments: { marker } },
    'slow',
    20_000,
  );
  strays.push(pidIn(`${marker}.daemon`));
  const elapsed = Date.now() - started;
  t.match(reply.result, { isError: true, structuredContent: { error: { type: 'timeout' } } });
  t.ok(elapsed >= 2000 && elapsed < 6000, `timed out after ${elapsed} ms (timeoutSecs 2, daemon 40 s)`);
  t.same((await server.request('ping')).result, {});
  await server.close();
});

t.test(
  'with such a daemon, a cancel ends the call promptly and frees its concurrency slot',
  { skip: !hasSetsid },
  async (t) => {
    const server = await startInitialized({
      projectRoot: projectWith({ 'daemon-then-sleep': [120, `${DAEMON}\nsleep 30`] }),
      env: toolEnv({ MCPBASH_MAX_CONCURRENT_REQUESTS: '1' }),
    });
    const marker = join(markers, 'cancel');
    server.send({
      jsonrpc: '2.0',
      id: 'to-cancel',
      method: 'tools/call',
      params: { name: 'daemon-then-sleep', arguments: { marker } },
    });
    t.ok(await eventually(() => existsSync(`${marker}.daemon`)), 'the tool started its daemon');
    strays.push(pidIn(`${marker}.daemon`));
    server.notify('notifications/cancelled', { requestId: 'to-cancel' });
    const started = Date.now();
    const next = await server.request('tools/call', { name: 'echo-text', arguments: {} }, 'next', 10_000);
    t.match(next.result, { isError: false }, 'the only slot was freed for the next call');
    t.ok(Date.now() - started < 5000, `within ${Date.now() - started} ms of the cancel`);
    t.notOk(
      server.messages.some((m) => m.id === 'to-cancel'),
      'the cancelled call gets no response',
    );
    await server.close();
  },
);

t.test('what a child of the tool writes after the tool exited, until its KILL, is in the result', async (t) => {
  // The child ignores TERM: it lives until the KILL at the end of the grace period, and the
  // pipe it holds is read until then (it used to be cut 250 ms after the tool's exit).
  const server = await startInitialized({
    projectRoot: projectWith({
      'late-writer': [
        30,
        // The tool exits once its child ignores TERM (the marker file).
        '( trap "" TERM; : >"$marker.ignoring"; sleep 0.5; echo late; exec sleep 30 ) &\n' +
          'until [ -e "$marker.ignoring" ]; do sleep 0.01; done\necho early',
      ],
    }),
    env: toolEnv({ MCPBASH_KILL_GRACE_SECS: '1.5' }),
  });
  const marker = join(markers, 'late-writer');
  const reply = await server.request('tools/call', { name: 'late-writer', arguments: { marker } });
  t.match(reply.result, { content: [{ text: 'early\nlate\n' }], isError: false });
  t.notMatch(server.stderr, /still held its stdout/, 'nothing was cut');
  await server.close();
});

t.test('a timed-out tool that ignores TERM is KILLed at the end of the grace period', async (t) => {
  const server = await startInitialized({
    projectRoot: projectWith({
      'ignores-term-tool': [1, 'trap "" TERM\nprintf "%s\\n" "$$" >"$marker.pid"\nsleep 30'],
    }),
    env: toolEnv({ MCPBASH_KILL_GRACE_SECS: '0.5' }),
  });
  const marker = join(markers, 'ignores-term');
  const started = Date.now();
  const reply = await server.request('tools/call', { name: 'ignores-term-tool', arguments: { marker } }, 'k', 20_000);
  const elapsed = Date.now() - started;
  const pid = pidIn(`${marker}.pid`);
  strays.push(pid);
  t.match(reply.result, { isError: true, structuredContent: { error: { type: 'timeout', exitCode: 137 } } });
  t.notOk(isAlive(pid), 'the tool is gone when its result arrives');
  t.ok(elapsed >= 1400 && elapsed < 3000, `answered at the KILL, timeout 1 s + grace 0.5 s (${elapsed} ms)`);
  await server.close();
});

// A child in the tool's own process group that ignores TERM and does not hold the pipes.
// The child writes its pid once TERM is ignored; the tool waits for that before it exits.
const STUBBORN_CHILD = `( trap '' TERM; printf '%s\\n' "$BASHPID" >"$marker.child"; exec sleep 30 ) \\
  </dev/null >/dev/null 2>&1 &
while [ ! -s "$marker.child" ]; do sleep 0.05; done
echo done`;

t.test('a TERM-ignoring child that closed its pipes is KILLed after the call', async (t) => {
  const server = await startInitialized({
    projectRoot: projectWith({ 'stubborn-child': [30, STUBBORN_CHILD] }),
    env: toolEnv({ MCPBASH_KILL_GRACE_SECS: '0.5' }),
  });
  const marker = join(markers, 'after-call');
  const reply = await server.request('tools/call', { name: 'stubborn-child', arguments: { marker } });
  t.match(reply.result, { content: [{ text: 'done\n' }], isError: false });
  const child = pidIn(`${marker}.child`);
  strays.push(child);
  t.ok(await waitForExit(child, 5000), `the child ${child} is gone after the grace period`);
  await server.close();
});

t.test('... and one still in its grace period when the server shuts down is KILLed before exit', async (t) => {
  const server = await startInitialized({
    projectRoot: projectWith({ 'stubborn-child': [30, STUBBORN_CHILD] }),
    env: toolEnv({ MCPBASH_KILL_GRACE_SECS: '3' }),
  });
  const marker = join(markers, 'at-shutdown');
  await server.request('tools/call', { name: 'stubborn-child', arguments: { marker } });
  const child = pidIn(`${marker}.child`);
  strays.push(child);
  t.ok(isAlive(child), 'alive right after the call (it ignores TERM)');
  t.equal((await server.close()).code, 0);
  t.notOk(isAlive(child), 'gone when the server has exited');
});
