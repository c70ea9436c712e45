import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import t from 'tap';
import { fixtureProject } from '../../helpers/fixtures.js';
import { startInitialized } from '../../helpers/mcp-process.js';
import { eventually } from '../../helpers/processes.js';
import { toolEnv } from '../../helpers/run-binary.js';

/**
 * A project with a `gated` tool: as it starts it marks itself running and writes its id and
 * how many calls are running to `started.log`, then waits until the test creates
 * `gate-<id>`. The log says which calls ran, in what order and how many at once; the gates
 * let the test decide when each one ends, with no timing involved.
 */
function gatedProject(): {
  root: string;
  started: () => string[];
  mostAtOnce: () => number;
  open: (id: string) => void;
} {
  const root = fixtureProject('tools');
  const tool = join(root, 'tools', 'gated');
  mkdirSync(tool);
  writeFileSync(join(tool, 'tool.meta.json'), '{"name":"gated","description":"Waits for its gate","timeoutSecs":60}');
  writeFileSync(
    join(tool, 'tool.sh'),
    [
      '#!/usr/bin/env bash',
      'id=$(printf \'%s\' "$MCP_TOOL_ARGS_JSON" | sed -n \'s/.*"id":"\\([^"]*\\)".*/\\1/p\')',
      'cd "$MCPBASH_PROJECT_ROOT"',
      ': >"running-$id"',
      'set -- running-*',
      'printf \'%s %s\\n\' "$id" "$#" >>started.log',
      'while [ ! -e "gate-$id" ]; do sleep 0.02; done',
      'rm -f "running-$id"',
      'printf \'done %s\' "$id"',
      '',
    ].join('\n'),
    { mode: 0o755 },
  );
  const log = join(root, 'started.log');
  const entries = () => {
    try {
      return readFileSync(log, 'utf8')
        .split('\n')
        .filter(Boolean)
        .map((line) => line.split(' '));
    } catch {
      return [];
    }
  };
  return {
    root,
    started: () => entries().map(([id]) => id as string),
    mostAtOnce: () => Math.max(0, ...entries().map(([, running]) => Number(running))),
    open: (id) => writeFileSync(join(root, `gate-${id}`), ''),
  };
}

t.test('1,000 pings are answered promptly while 16 tool calls hold every slot', async (t) => {
  const project = gatedProject();
  const server = await startInitialized({ projectRoot: project.root, env: toolEnv() });
  t.teardown(() => server.close());
  const ids = Array.from({ length: 16 }, (_, i) => `slow-${i}`);
  const calls = ids.map((id) => server.request('tools/call', { name: 'gated', arguments: { id } }, id, 60_000));
  t.ok(await eventually(() => project.started().length === 16, 20_000), 'all 16 calls are running');
  t.equal(project.mostAtOnce(), 16, 'at once');
  const started = Date.now();
  const replies = await Promise.all(
    Array.from({ length: 1000 }, (_, i) => server.request('ping', undefined, `ping-${i}`)),
  );
  const elapsed = Date.now() - started;
  t.ok(
    replies.every((reply) => reply.error === undefined),
    'every ping answered',
  );
  t.equal(
    server.messages.filter((m) => typeof m.id === 'string' && m.id.startsWith('slow-')).length,
    0,
    'while no call had finished',
  );
  t.ok(elapsed < 2500, `1,000 pings took ${elapsed} ms with every slot held`);
  for (const id of ids) project.open(id);
  const results = await Promise.all(calls);
  t.ok(
    results.every((reply) => (reply.result as { isError: boolean }).isError === false),
    'the calls then finish',
  );
  t.same(server.protocolViolations, []);
});

t.test('beyond MCPBASH_MAX_CONCURRENT_REQUESTS calls queue (never dropped) and start in arrival order', async (t) => {
  const project = gatedProject();
  const server = await startInitialized({
    projectRoot: project.root,
    env: toolEnv({ MCPBASH_MAX_CONCURRENT_REQUESTS: '2' }),
  });
  t.teardown(() => server.close());
  const ids = Array.from({ length: 6 }, (_, i) => `q-${i}`);
  const calls = ids.map((id) => server.request('tools/call', { name: 'gated', arguments: { id } }, id, 60_000));
  t.ok(await eventually(() => project.started().length >= 2, 10_000), 'two calls start');
  // The ping is read after the six calls, so once it is answered all six have been received.
  t.same((await server.request('ping')).result, {}, 'ping is never queued');
  t.same(project.started().sort(), ['q-0', 'q-1'], 'the first two run; the other four wait');
  // Each call that ends frees one slot, which goes to the oldest waiting call.
  for (const [ending, next] of [
    ['q-1', 'q-2'],
    ['q-0', 'q-3'],
    ['q-3', 'q-4'],
    ['q-2', 'q-5'],
  ] as const) {
    project.open(ending);
    t.match((await calls[ids.indexOf(ending)])?.result, { content: [{ text: `done ${ending}` }] }, `${ending} ends`);
    t.ok(await eventually(() => project.started().length > ids.indexOf(next)), `then a call starts`);
    if (!t.equal(project.started()[ids.indexOf(next)], next, `and it is ${next}`)) break;
  }
  for (const id of ids) project.open(id);
  const replies = await Promise.all(calls);
  t.ok(
    replies.every((reply) => reply.result !== undefined),
    'all six answered',
  );
  // The first two start together and may log in either order; the loop above pinned the rest.
  t.same([...project.started()].sort(), ids, 'each call ran once');
  t.equal(project.mostAtOnce(), 2, 'never more than two at once');
});
