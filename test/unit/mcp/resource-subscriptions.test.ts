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
  const subscriptions = new ResourceSubscriptions({ intervalMs: 5, poll, notify: (uri) => notified.push(uri) });
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
  const subscriptions = new ResourceSubscriptions({ intervalMs: 5, poll, notify: (uri) => notified.push(uri) });
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
