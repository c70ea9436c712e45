import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { ResourceUpdatedNotificationSchema } from '@modelcontextprotocol/sdk/types.js';
import t from 'tap';
import { fixtureProject } from '../../helpers/fixtures.js';
import { type McpProcess, startInitialized } from '../../helpers/mcp-process.js';
import { eventually } from '../../helpers/processes.js';
import { isolatedEnv } from '../../helpers/run-binary.js';
import { connectSdkClient, sdkEnv } from '../../helpers/sdk-client.js';

const POLL = { MCPBASH_RESOURCES_POLL_INTERVAL_SECS: '0.2' };
const updates = (server: McpProcess, uri: string) =>
  server.notifications('notifications/resources/updated').filter((m) => m.params?.uri === uri);

/**
 * A witness of the poller's rounds: myapi://ticking/<name> reads differently every time, so
 * each poll of it is reported, and it stays at the base interval. Subscribed after the
 * resource under test, it is polled after it in any round where both are due: once the
 * witness has been reported `rounds` more times (at least `rounds` base intervals later),
 * a change of the other resource would have been reported before it. The ping makes sure
 * everything the server wrote before has arrived.
 */
async function witness(server: McpProcess, name = 'witness') {
  const uri = `myapi://ticking/${name}`;
  await server.request('resources/subscribe', { uri });
  return {
    uri,
    async rounds(rounds: number) {
      const target = updates(server, uri).length + rounds;
      await server.waitFor(() => updates(server, uri).length >= target, 10_000, `${rounds} polls of ${uri}`);
      await server.request('ping');
    },
  };
}

/** How often the fixture provider read myapi://counted/<name> or myapi://ticking/<name> in `project`. */
function readCounter(project: string): (name: string) => number {
  const log = join(project, 'reads.log');
  return (name) =>
    existsSync(log)
      ? readFileSync(log, 'utf8')
          .split('\n')
          .filter((line) => line === name).length
      : 0;
}

t.test('a subscribed resource that changes is announced with only its uri; unsubscribe stops that', async (t) => {
  const project = fixtureProject('resources');
  const file = join(project, 'resources', 'notes.txt');
  const uri = `file://${file}`;
  const server = await startInitialized({ projectRoot: project, env: isolatedEnv(POLL) });
  t.teardown(() => server.close());
  const subscribed = await server.request('resources/subscribe', { uri });
  t.match(
    subscribed.result,
    { _meta: { 'mcpbash/subscriptionId': /^sub-/ } },
    'an empty result; the id only in _meta (D18)',
  );
  t.same(Object.keys(subscribed.result as object), ['_meta']);
  const polls = await witness(server);
  await polls.rounds(2);
  t.equal(updates(server, uri).length, 0, 'nothing changed, nothing announced');
  writeFileSync(file, 'changed\n');
  const update = await server.waitFor((m) => m.method === 'notifications/resources/updated' && m.params?.uri === uri);
  t.same(update.params, { uri });
  t.same((await server.request('resources/unsubscribe', { uri })).result, {});
  writeFileSync(file, 'changed again\n');
  await polls.rounds(2);
  t.equal(updates(server, uri).length, 1, 'no update after unsubscribe');
  t.match((await server.request('resources/unsubscribe', {})).error, {
    code: -32602,
    message: 'Resource uri required',
  });
});

t.test('errors appearing or going away count as changes; 1.x clients may unsubscribe by id', async (t) => {
  const project = fixtureProject('resources');
  const counter = join(project, 'counter.txt');
  writeFileSync(counter, '1');
  const server = await startInitialized({ projectRoot: project, env: isolatedEnv(POLL) });
  t.teardown(() => server.close());
  const subscribed = await server.request('resources/subscribe', { uri: 'myapi://counter' });
  const id = (subscribed.result as { _meta: Record<string, string> })._meta['mcpbash/subscriptionId'];
  const polls = await witness(server);
  rmSync(counter);
  await server.waitFor(() => updates(server, 'myapi://counter').length >= 1, 5000, 'update after the error');
  writeFileSync(counter, '2');
  await server.waitFor(() => updates(server, 'myapi://counter').length >= 2, 5000, 'update after recovery');
  t.same((await server.request('resources/unsubscribe', { subscriptionId: id })).result, {});
  writeFileSync(counter, '3');
  await polls.rounds(2);
  t.equal(updates(server, 'myapi://counter').length, 2, 'unsubscribed by id');
});

t.test('the poller runs only between the first subscribe and the last unsubscribe', async (t) => {
  const project = fixtureProject('resources');
  const reads = readCounter(project);
  const server = await startInitialized({ projectRoot: project, env: isolatedEnv(POLL) });
  t.teardown(() => server.close());
  t.match((await server.request('resources/read', { uri: 'myapi://ticking/plain' })).result, {
    contents: [{ text: '1\n' }],
  });
  await server.request('resources/subscribe', { uri: 'myapi://ticking/a' });
  await server.request('resources/subscribe', { uri: 'myapi://ticking/b' });
  await server.waitFor(() => updates(server, 'myapi://ticking/b').length >= 2, 5000, 'b polled twice');
  t.ok(updates(server, 'myapi://ticking/a').length >= 2, 'subscribed: both polled');
  t.equal(reads('plain'), 1, 'a plain read starts no polling');
  t.same((await server.request('resources/unsubscribe', { uri: 'myapi://ticking/a' })).result, {});
  const [a, b, bUpdates] = [reads('a'), reads('b'), updates(server, 'myapi://ticking/b').length];
  await server.waitFor(() => updates(server, 'myapi://ticking/b').length >= bUpdates + 2, 5000, 'b polled twice more');
  t.ok(reads('b') >= b + 2, 'the other is still polled');
  t.equal(reads('a'), a, 'while the unsubscribed one is no longer read');
  t.same((await server.request('resources/unsubscribe', { uri: 'myapi://ticking/b' })).result, {});
  const last = reads('b');
  // b reads differently every time, so a poller still running would read it every 0.2 s:
  // three intervals without a read show it stopped (the unit test checks a whole hour).
  await new Promise((resolve) => setTimeout(resolve, 600));
  t.equal(reads('b'), last, 'after the last unsubscribe the poller stops');
});

t.test('the first read must succeed; polling can be turned off', async (t) => {
  const project = fixtureProject('resources');
  const reads = readCounter(project);
  const server = await startInitialized({
    projectRoot: project,
    env: isolatedEnv({ MCPBASH_RESOURCES_POLL_INTERVAL_SECS: '0' }),
  });
  t.teardown(() => server.close());
  t.match((await server.request('resources/subscribe', { uri: `file://${project}/resources/missing.txt` })).error, {
    code: -32002,
    message: 'Resource not found',
  });
  t.match((await server.request('resources/subscribe', {})).error, { code: -32602 });
  t.match((await server.request('resources/subscribe', { name: 'notes' })).result, { _meta: {} }, 'by name too');
  await server.request('resources/subscribe', { uri: 'myapi://ticking/off' });
  // Nothing to witness a poller that should not run: wait longer than the default interval
  // (2 s), which a value of 0 that was not honoured would fall back to. The unit test
  // checks an interval of 0 over an hour of fake time.
  await new Promise((resolve) => setTimeout(resolve, 2500));
  t.equal(reads('off'), 1, 'only the subscribe read it');
  t.equal(
    server.notifications('notifications/resources/updated').length,
    0,
    'MCPBASH_RESOURCES_POLL_INTERVAL_SECS=0: no polling',
  );
});

t.test('the official SDK client subscribes and receives resources/updated', async (t) => {
  const project = fixtureProject('resources');
  const file = join(project, 'resources', 'docs', 'nested.txt');
  const { client } = await connectSdkClient({ env: sdkEnv(isolatedEnv({ MCPBASH_PROJECT_ROOT: project, ...POLL })) });
  t.teardown(() => client.close());
  const updated = new Promise<string>((resolve) => {
    client.setNotificationHandler(ResourceUpdatedNotificationSchema, (notification) =>
      resolve(notification.params.uri),
    );
  });
  const first = await client.subscribeResource({ uri: `file://${file}` });
  t.same(await client.subscribeResource({ uri: `file://${file}` }), first, 'subscribing twice keeps one subscription');
  writeFileSync(file, 'new content\n');
  t.equal(await updated, `file://${file}`);
  t.same(await client.unsubscribeResource({ uri: `file://${file}` }), {});
});

t.test('a session may subscribe to at most MCPBASH_MAX_SUBSCRIPTIONS (64) resources', async (t) => {
  const server = await startInitialized({
    projectRoot: fixtureProject('resources'),
    env: isolatedEnv({ MCPBASH_RESOURCES_POLL_INTERVAL_SECS: '0' }),
  });
  t.teardown(() => server.close());
  const subscribe = (n: number) => server.request('resources/subscribe', { uri: `echo://item-${n}` });
  const answers = await Promise.all(Array.from({ length: 64 }, (_, n) => subscribe(n)));
  t.ok(
    answers.every((answer) => answer.result !== undefined),
    '64 subscriptions are accepted',
  );
  t.match((await subscribe(64)).error, { code: -32602, message: /Too many subscriptions.*MCPBASH_MAX_SUBSCRIPTIONS/ });
  t.ok((await subscribe(3)).result, 'subscribing again to one of them is fine');
  t.same((await server.request('resources/unsubscribe', { uri: 'echo://item-0' })).result, {});
  t.ok((await subscribe(64)).result, 'there is room again after an unsubscribe');
});

t.test('an unchanged resource is polled with back-off, and polls wait for a concurrency slot', async (t) => {
  const project = fixtureProject('resources');
  const reads = readCounter(project);
  const tool = join(project, 'tools', 'holds-the-slot');
  mkdirSync(tool, { recursive: true });
  writeFileSync(join(tool, 'tool.meta.json'), '{"name":"holds-the-slot","description":"x","timeoutSecs":30}');
  writeFileSync(
    join(tool, 'tool.sh'),
    '#!/usr/bin/env bash\nlog="$MCPBASH_PROJECT_ROOT/reads.log"\nbefore=$(wc -l <"$log")\nsleep 1\nprintf \'%s ' +
      '%s\' "$before" "$(wc -l <"$log")"\n',
    { mode: 0o755 },
  );
  const server = await startInitialized({
    projectRoot: project,
    env: isolatedEnv({ ...POLL, MCPBASH_MAX_CONCURRENT_REQUESTS: '1', MCPBASH_TOOL_ALLOWLIST: '*' }),
  });
  t.teardown(() => server.close());
  await server.request('resources/subscribe', { uri: 'myapi://counted/quiet' });
  // Polls are due 0.2 and 0.6 s after the subscribe: during the call, which holds the slot
  // for a second.
  const call = await server.request('tools/call', { name: 'holds-the-slot', arguments: {} });
  const [before, after] = String((call.result as { content: Array<{ text: string }> }).content[0]?.text).split(' ');
  t.equal(after, before, 'no provider ran for polling while the tool held the only slot');
  // Then the reads come 0.4 s, then 0.8 s apart (0.2 s each without the back-off).
  const readTimes: number[] = [];
  for (const count of [2, 3, 4]) {
    t.ok(await eventually(() => reads('quiet') >= count, 5000), `poll ${count - 1} once the slot is free`);
    readTimes.push(Date.now());
  }
  const gap = (readTimes[2] as number) - (readTimes[1] as number);
  t.ok(gap >= 600, `the interval grows: ${gap} ms between the last two polls`);
});
