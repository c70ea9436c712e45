import type { RegistryStore } from '../project/registry/registry-store.js';
import type { HandlerModule } from './server-context.js';

/**
 * The next turn of the event loop, after input that arrived meanwhile has been read and its
 * requests started. Two immediates: the first may run in this turn's check phase, before
 * the loop polls for input again.
 */
const afterPendingInput = () => new Promise<void>((resolve) => setImmediate(() => setImmediate(resolve)));

/**
 * After `notifications/initialized`: scan the registries once (the list_changed baseline,
 * and a warm cache for the first list), then look once a second - each kind rescanning
 * when its TTL has expired - while the client can be told about changes.
 *
 * Tools go first, with UI resources (they share the walk of tools/), and the other kinds a
 * turn later: a client's first tools/list, usually sent right after `initialized`, then
 * waits for the tools alone.
 */
export const registryPollingModule: HandlerModule = {
  name: 'registry polling',
  register(context) {
    const { registries, session, log } = context;
    let timer: NodeJS.Timeout | undefined;
    let stopped = false;
    const refresh = (store: RegistryStore<unknown>) =>
      store.snapshot().catch((error: Error) => log.debug('mcp.registry', `${store.kind}: ${error.message}`));
    const check = async () => {
      const first: Array<RegistryStore<unknown>> = [registries.tools, registries.ui];
      await Promise.all(first.map(refresh));
      await afterPendingInput();
      // The session may have ended meanwhile: no scan (or register.sh) after its processes stopped.
      if (stopped) return;
      await Promise.all(
        registries
          .all()
          .filter((store) => !first.includes(store))
          .map(refresh),
      );
    };
    return {
      onReady: () => {
        void check();
        if (!session.features.listChanged) return;
        timer = setInterval(() => void check(), registries.pollIntervalMs());
        timer.unref();
      },
      onStop: () => {
        stopped = true;
        clearInterval(timer);
      },
    };
  },
};
