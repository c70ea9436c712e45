import type { HandlerModule } from './server-context.js';

/**
 * After `notifications/initialized`: scan the registries once (the list_changed baseline,
 * and a warm cache for the first list), then check for changes every TTL while the client
 * can be told about them.
 */
export const registryPollingModule: HandlerModule = (context) => {
  const { registries, session, log } = context;
  const stores = () => registries.all();
  const check = () => {
    for (const store of stores()) {
      store.snapshot().catch((error: Error) => log.debug('mcp.registry', `${store.kind}: ${error.message}`));
    }
  };
  context.onReady(() => {
    check();
    if (!session.features.listChanged) return;
    const timer = setInterval(check, registries.pollIntervalMs());
    timer.unref();
    context.onStop(() => clearInterval(timer));
  });
};
