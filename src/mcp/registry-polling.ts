import type { RegistryStore } from '../project/registry/registry-store.js';
import type { HandlerModule } from './server-context.js';

/**
 * After `notifications/initialized`: scan the tools (with the UI resources: they share the
 * walk of tools/) at once - a client's first tools/list, usually sent right after
 * `initialized`, waits for that scan alone - and the other kinds a poll interval later,
 * when the burst of first requests (tools/list and its pages, the other lists, which scan
 * their own kind when asked first) is over. Those scans are the list_changed baselines. While
 * the client can be told about changes, every kind is then looked at once a second,
 * rescanning when its TTL has expired.
 */
export const registryPollingModule: HandlerModule = {
  name: 'registry polling',
  register(context) {
    const { registries, session, log } = context;
    let timer: NodeJS.Timeout | undefined;
    let stopped = false;
    const refresh = (store: RegistryStore<unknown>) =>
      store.snapshot().catch((error: Error) => log.debug('mcp.registry', `${store.kind}: ${error.message}`));
    // The session may have ended meanwhile: no scan (or register.sh) after its processes stopped.
    const check = async (stores: ReadonlyArray<RegistryStore<unknown>>) => {
      if (!stopped) await Promise.all(stores.map(refresh));
    };
    return {
      onReady: () => {
        const first: Array<RegistryStore<unknown>> = [registries.tools, registries.ui];
        void check(first);
        const interval = registries.pollIntervalMs();
        if (!session.features.listChanged) {
          const rest = registries.all().filter((store) => !first.includes(store));
          timer = setTimeout(() => void check(rest), interval).unref();
          return;
        }
        // The first tick also takes the other kinds' first scans.
        timer = setInterval(() => void check(registries.all()), interval).unref();
      },
      onStop: () => {
        stopped = true;
        // One Timeout handle either way (a one-shot or an interval): clearTimeout clears both.
        clearTimeout(timer);
      },
    };
  },
};
