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

/** The polling module registered on registries that count their scans, for a client without list_changed. */
function pollingOn() {
  const [tools, ui, resources, prompts] = (['tools', 'ui', 'resources', 'prompts'] as const).map(countingStore);
  const registries = { tools, ui, all: () => [tools, resources, prompts, ui], pollIntervalMs: () => 1000 };
  const context = {
    registries,
    session: { features: { listChanged: false } },
    log: { debug: () => undefined },
  } as unknown as ServerContext;
  const lifecycle = registryPollingModule.register(context);
  if (!lifecycle?.onReady || !lifecycle.onStop) throw new Error('the polling module has no onReady/onStop');
  return { lifecycle, tools, ui, resources, prompts };
}

/** Resolves after `turns` turns of the event loop: long enough for the first check to finish. */
const turns = async (count: number) => {
  for (let turn = 0; turn < count; turn += 1) await new Promise((resolve) => setImmediate(resolve));
};

t.test('the first check scans tools and UI first, then every other kind', async (t) => {
  const { lifecycle, tools, ui, resources, prompts } = pollingOn();
  lifecycle.onReady?.();
  t.equal(tools.snapshots + ui.snapshots, 2, 'tools and UI resources are scanned at once');
  t.equal(resources.snapshots + prompts.snapshots, 0, 'the other kinds wait for pending input');
  await turns(5);
  t.equal(resources.snapshots, 1, 'resources are scanned a turn later');
  t.equal(prompts.snapshots, 1, 'prompts are scanned a turn later');
  lifecycle.onStop?.();
});

t.test('a session that stops before the second half of the first check scans nothing more', async (t) => {
  const { lifecycle, tools, resources, prompts } = pollingOn();
  lifecycle.onReady?.();
  lifecycle.onStop?.();
  await turns(5);
  t.equal(tools.snapshots, 1, 'the tools scan had already started');
  t.equal(resources.snapshots + prompts.snapshots, 0, 'no scan (and no register.sh) after the session stopped');
});
