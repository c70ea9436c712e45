import { Clock } from '@tapjs/clock';
import t from 'tap';
import { registryPollingModule } from '../../../src/mcp/registry-polling.js';
import type { ServerContext } from '../../../src/mcp/server-context.js';
import type { RegistryKind } from '../../../src/project/registry/registry-store.js';

/** A registry that only counts how often it was asked for a snapshot. */
function countingStore(kind: RegistryKind) {
  const store = {
    kind,
    snapshots: 0,
    snapshot: async () => {
      store.snapshots += 1;
      return { items: [], hash: kind, generatedAt: new Date() };
    },
  };
  return store;
}

/** The polling module registered on registries that count their scans (a client without list_changed by default). */
function pollingOn(listChanged = false) {
  const [tools, ui, resources, prompts] = (['tools', 'ui', 'resources', 'prompts'] as const).map(countingStore);
  const registries = { tools, ui, all: () => [tools, resources, prompts, ui], pollIntervalMs: () => 1000 };
  const context = {
    registries,
    session: { features: { listChanged } },
    log: { debug: () => undefined },
  } as unknown as ServerContext;
  const lifecycle = registryPollingModule.register(context);
  if (!lifecycle?.onReady || !lifecycle.onStop) throw new Error('the polling module has no onReady/onStop');
  return { lifecycle, tools, ui, resources, prompts };
}

t.test('the first check scans tools and UI at once, every other kind a poll interval later', async (t) => {
  const clock = new Clock();
  t.teardown(clock.enter());
  const { lifecycle, tools, ui, resources, prompts } = pollingOn();
  lifecycle.onReady?.();
  t.equal(tools.snapshots + ui.snapshots, 2, 'tools and UI resources are scanned at once');
  clock.advance(999);
  t.equal(resources.snapshots + prompts.snapshots, 0, "the other kinds wait out the first requests' burst");
  clock.advance(1);
  t.equal(resources.snapshots, 1, 'resources are scanned a poll interval later');
  t.equal(prompts.snapshots, 1, 'prompts too');
  t.equal(tools.snapshots + ui.snapshots, 2, 'tools and UI are not scanned again (no list_changed: no polling)');
  clock.advance(5000);
  t.same(
    [tools, ui, resources, prompts].map((store) => store.snapshots),
    [1, 1, 1, 1],
    'and nothing polls after that',
  );
  lifecycle.onStop?.();
});

t.test("a session that stops before the other kinds' first scan scans nothing more", async (t) => {
  const clock = new Clock();
  t.teardown(clock.enter());
  const { lifecycle, tools, resources, prompts } = pollingOn();
  lifecycle.onReady?.();
  lifecycle.onStop?.();
  clock.advance(2000);
  t.equal(tools.snapshots, 1, 'the tools scan had already started');
  // Fake timers: the scans start synchronously when their timer fires, so none could be missed here.
  t.equal(resources.snapshots + prompts.snapshots, 0, 'no scan (and no register.sh) after the session stopped');
});

t.test('with list_changed, the first tick scans every kind, and every tick after it', async (t) => {
  const clock = new Clock();
  t.teardown(clock.enter());
  const { lifecycle, tools, ui, resources, prompts } = pollingOn(true);
  lifecycle.onReady?.();
  const counts = () => [tools, ui, resources, prompts].map((store) => store.snapshots);
  t.same(counts(), [1, 1, 0, 0], 'tools and UI at once');
  clock.advance(1000);
  t.same(counts(), [2, 2, 1, 1], 'the first tick: every kind (each store decides by its TTL)');
  clock.advance(1000);
  t.same(counts(), [3, 3, 2, 2], 'and once a second after it');
  lifecycle.onStop?.();
  clock.advance(5000);
  t.same(counts(), [3, 3, 2, 2], 'nothing after the stop');
});
