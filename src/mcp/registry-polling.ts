import type { HandlerModule } from './server-context.js';

/**
 * After `notifications/initialized`: scan the registries once (the list_changed baseline,
 * and a warm cache for the first list), then look once a second - each kind rescanning
 * when its TTL has expired - while the client can be told about changes.
 */
export const registryPollingModule: HandlerModule = {
  name: 'registry polling',
  register(context) {
    const { registries, session, log } = context;
    let timer: NodeJS.Timeout | undefined;
    const check = () => {
      for (const store of registries.all()) {
        store.snapshot().catch((error: Error) => log.debug('mcp.registry', `${store.kind}: ${error.message}`));
      }
    };
    return {
      onReady: () => {
        check();
        if (!session.features.listChanged) return;
        timer = setInterval(check, registries.pollIntervalMs());
        timer.unref();
      },
      onStop: () => clearInterval(timer),
    };
  },
};
