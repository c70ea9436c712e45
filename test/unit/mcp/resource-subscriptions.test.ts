import t from 'tap';
import type { ResolvedResource } from '../../../src/mcp/resource-reader.js';
import { ResourceSubscriptions } from '../../../src/mcp/resource-subscriptions.js';

const resource = (uri: string): ResolvedResource => ({ uri, provider: 'file' });
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** A poll whose answers the test releases one by one, recording what was polled and whether it was aborted. */
function controlledPoll() {
  const started: Array<{ uri: string; signal: AbortSignal; answer: (fingerprint: string) => void }> = [];
  const poll = (target: ResolvedResource, signal: AbortSignal) =>
    new Promise<string>((resolve) => {
      started.push({ uri: target.uri, signal, answer: resolve });
    });
  return { started, poll };
}

t.test('a subscription removed while its poll runs is not reported; the others are', async (t) => {
  const { started, poll } = controlledPoll();
  const notified: string[] = [];
  const subscriptions = new ResourceSubscriptions({
    intervalMs: 5,
    maxSubscriptions: 10,
    poll,
    notify: (uri) => notified.push(uri),
  });
  subscriptions.add(resource('file:///a'), 'a0');
  subscriptions.add(resource('file:///b'), 'b0');
  while (started.length === 0) await sleep(5);
  t.equal(started[0]?.uri, 'file:///a');
  t.ok(subscriptions.remove({ uri: 'file:///a' }));
  started[0]?.answer('a1');
  while (started.length < 2) await sleep(5);
  t.equal(started[1]?.uri, 'file:///b', 'the round goes on for the others');
  started[1]?.answer('b1');
  await sleep(20);
  t.same(notified, ['file:///b'], 'a change of the removed resource is not announced');
  subscriptions.stop();
});

t.test('removing the last subscription aborts the round in flight and stops polling', async (t) => {
  const { started, poll } = controlledPoll();
  const notified: string[] = [];
  const subscriptions = new ResourceSubscriptions({
    intervalMs: 5,
    maxSubscriptions: 10,
    poll,
    notify: (uri) => notified.push(uri),
  });
  const id = subscriptions.add(resource('file:///only'), 'x0');
  while (started.length === 0) await sleep(5);
  t.ok(subscriptions.remove({ id }), 'removed by id (1.x clients)');
  t.equal(started[0]?.signal.aborted, true, 'the poll in flight is aborted');
  started[0]?.answer('x1');
  await sleep(40);
  t.equal(started.length, 1, 'no further polls');
  t.same(notified, []);
  subscriptions.add(resource('file:///only'), 'x0');
  while (started.length < 2) await sleep(5);
  t.equal(started[1]?.signal.aborted, false, 'subscribing again starts polling again');
  subscriptions.stop();
});

t.test('an unchanged resource is polled less and less often; a change brings the base interval back', async (t) => {
  const polls: number[] = [];
  let content = 'same';
  const notified: string[] = [];
  const subscriptions = new ResourceSubscriptions({
    intervalMs: 20,
    maxSubscriptions: 10,
    poll: async () => {
      polls.push(Date.now());
      return content;
    },
    notify: (uri) => notified.push(uri),
  });
  const start = Date.now();
  subscriptions.add(resource('file:///quiet'), 'same');
  await sleep(700);
  // Back-off: due at 20, 60, 140, 300, 620 ms; without it, 35 polls.
  t.ok(polls.length >= 4 && polls.length <= 6, `${polls.length} polls in 700 ms`);
  const gaps = polls.map((time, index) => time - (index === 0 ? start : (polls[index - 1] as number)));
  t.ok((gaps[3] as number) >= 2 * (gaps[1] as number), `the gaps grow: ${gaps.join(', ')}`);
  content = 'changed';
  const before = polls.length;
  while (notified.length === 0) await sleep(10);
  t.same(notified, ['file:///quiet']);
  await sleep(60);
  t.ok(polls.length >= before + 2, 'after a change the next poll comes at the base interval again');
  subscriptions.stop();
});

t.test('at most maxSubscriptions distinct URIs; subscribing again to one does not count', async (t) => {
  const subscriptions = new ResourceSubscriptions({
    intervalMs: 0,
    maxSubscriptions: 2,
    poll: async () => '',
    notify: () => {},
  });
  subscriptions.add(resource('file:///a'), 'a');
  subscriptions.add(resource('file:///b'), 'b');
  t.throws(() => subscriptions.checkRoom('file:///c'), {
    code: -32602,
    message: /Too many subscriptions: this session already has 2 \(MCPBASH_MAX_SUBSCRIPTIONS\)/,
  });
  t.throws(() => subscriptions.add(resource('file:///c'), 'c'), { code: -32602 });
  t.doesNotThrow(() => subscriptions.add(resource('file:///a'), 'a2'), 'a subscribed URI can be subscribed again');
  subscriptions.remove({ uri: 'file:///a' });
  t.doesNotThrow(() => subscriptions.add(resource('file:///c'), 'c'), 'room after an unsubscribe');
  t.equal(subscriptions.size, 2);
  subscriptions.stop();
});
