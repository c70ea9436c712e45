import { Clock } from '@tapjs/clock';
import t, { type Test } from 'tap';
import type { ResolvedResource } from '../../../src/mcp/resource-reader.js';
import { MAX_POLL_BACKOFF_MS, ResourceSubscriptions } from '../../../src/mcp/resource-subscriptions.js';

const resource = (uri: string): ResolvedResource => ({ uri, provider: 'file' });

/**
 * tap's fake clock for one test: timers and Date.now move only when the test advances
 * them. `advance` goes in small steps and lets the poller's promises settle after each,
 * as real time would; `until` advances until a condition holds.
 */
function fakeClock(t: Test) {
  const clock = new Clock();
  t.teardown(clock.enter());
  const settle = async () => {
    for (let i = 0; i < 20; i += 1) await Promise.resolve();
  };
  const advance = async (ms: number, step = 5) => {
    for (let passed = 0; passed < ms; passed += step) {
      clock.advance(step);
      await settle();
    }
  };
  const until = async (condition: () => boolean, limitMs = 60_000) => {
    const deadline = clock.now() + limitMs;
    while (!condition() && clock.now() < deadline) await advance(5);
    return condition();
  };
  return { clock, advance, until, settle };
}

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
  const { advance, until } = fakeClock(t);
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
  t.ok(await until(() => started.length === 1));
  t.equal(started[0]?.uri, 'file:///a');
  t.ok(subscriptions.remove({ uri: 'file:///a' }));
  started[0]?.answer('a1');
  t.ok(await until(() => started.length === 2));
  t.equal(started[1]?.uri, 'file:///b', 'the round goes on for the others');
  started[1]?.answer('b1');
  await advance(1000);
  t.same(notified, ['file:///b'], 'a change of the removed resource is not announced');
  subscriptions.stop();
});

t.test('removing the last subscription aborts the round in flight and stops polling', async (t) => {
  const { advance, until } = fakeClock(t);
  const { started, poll } = controlledPoll();
  const notified: string[] = [];
  const subscriptions = new ResourceSubscriptions({
    intervalMs: 5,
    maxSubscriptions: 10,
    poll,
    notify: (uri) => notified.push(uri),
  });
  const id = subscriptions.add(resource('file:///only'), 'x0');
  t.ok(await until(() => started.length === 1));
  t.ok(subscriptions.remove({ id }), 'removed by id (1.x clients)');
  t.equal(started[0]?.signal.aborted, true, 'the poll in flight is aborted');
  started[0]?.answer('x1');
  await advance(2 * MAX_POLL_BACKOFF_MS, 1000);
  t.equal(started.length, 1, 'no further polls, however long we wait');
  t.same(notified, []);
  subscriptions.add(resource('file:///only'), 'x0');
  t.ok(await until(() => started.length === 2));
  t.equal(started[1]?.signal.aborted, false, 'subscribing again starts polling again');
  subscriptions.stop();
});

t.test('an unchanged resource is polled less and less often; a change brings the base interval back', async (t) => {
  const { clock, advance, until } = fakeClock(t);
  const polls: number[] = [];
  let content = 'same';
  const notified: string[] = [];
  const subscriptions = new ResourceSubscriptions({
    intervalMs: 20,
    maxSubscriptions: 10,
    poll: async () => {
      polls.push(clock.now());
      return content;
    },
    notify: (uri) => notified.push(uri),
  });
  const start = clock.now();
  subscriptions.add(resource('file:///quiet'), 'same');
  await advance(700);
  const gaps = polls.map((time, index) => time - (index === 0 ? start : (polls[index - 1] as number)));
  t.same(gaps, [20, 40, 80, 160, 320], 'the interval doubles after each unchanged read (35 polls without)');
  t.ok(await until(() => polls.length === 6));
  t.equal(polls.length, 6);
  content = 'changed';
  // Still the long interval: the change is found at the next poll, 1280 ms later.
  t.ok(await until(() => polls.length === 7));
  t.equal((polls[6] as number) - (polls[5] as number), 1280);
  t.same(notified, ['file:///quiet']);
  t.ok(await until(() => polls.length === 8));
  t.equal((polls[7] as number) - (polls[6] as number), 20, 'after a change, the next poll comes at the base interval');
  subscriptions.stop();
});

t.test('the back-off stops at MAX_POLL_BACKOFF_MS', async (t) => {
  const { clock, advance } = fakeClock(t);
  const polls: number[] = [];
  const subscriptions = new ResourceSubscriptions({
    intervalMs: 1000,
    maxSubscriptions: 10,
    poll: async () => {
      polls.push(clock.now());
      return 'same';
    },
    notify: () => {},
  });
  subscriptions.add(resource('file:///quiet'), 'same');
  await advance(5 * 60_000, 250);
  const gaps = polls.slice(1).map((time, index) => time - (polls[index] as number));
  t.same(gaps.slice(0, 5), [2000, 4000, 8000, 16_000, MAX_POLL_BACKOFF_MS]);
  t.ok(
    gaps.slice(4).every((gap) => gap === MAX_POLL_BACKOFF_MS),
    `then every ${MAX_POLL_BACKOFF_MS} ms`,
  );
  subscriptions.stop();
});

t.test('an interval of 0 turns polling off (MCPBASH_RESOURCES_POLL_INTERVAL_SECS=0)', async (t) => {
  const { advance } = fakeClock(t);
  let polls = 0;
  const subscriptions = new ResourceSubscriptions({
    intervalMs: 0,
    maxSubscriptions: 10,
    poll: async () => {
      polls += 1;
      return 'changed';
    },
    notify: () => {},
  });
  subscriptions.add(resource('file:///a'), 'a');
  subscriptions.add(resource('file:///a'), 'a');
  subscriptions.add(resource('file:///b'), 'b');
  await advance(60 * 60_000, 1000);
  t.equal(polls, 0, 'no poll in an hour');
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
