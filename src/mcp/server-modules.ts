import { registryPollingModule } from './registry-polling.js';
import { toolsModule } from './handlers/tools.js';
import type { HandlerModule } from './server-context.js';

/** The MCP areas the server serves beyond lifecycle and logging, in registration order. */
export const serverModules: readonly HandlerModule[] = [toolsModule, registryPollingModule];
