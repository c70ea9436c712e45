import { completionModule } from './handlers/completion.js';
import { elicitationModule } from './handlers/elicitation.js';
import { promptsModule } from './handlers/prompts.js';
import { resourcesModule } from './handlers/resources.js';
import { rootsModule } from './handlers/roots.js';
import { samplingModule } from './handlers/sampling.js';
import { toolsModule } from './handlers/tools.js';
import { registryPollingModule } from './registry-polling.js';
import type { HandlerModule } from './server-context.js';

/** The MCP areas the server serves beyond lifecycle and logging, in registration order. */
export const serverModules: readonly HandlerModule[] = [
  rootsModule,
  elicitationModule,
  samplingModule,
  toolsModule,
  resourcesModule,
  promptsModule,
  completionModule,
  registryPollingModule,
];
