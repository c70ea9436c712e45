import { parseSetLevelParams } from '../params/logging-params.js';
import type { HandlerModule } from '../server-context.js';
import { UNCAPPED } from './lifecycle.js';

/**
 * `logging/setLevel`; a client-sent `notifications/message` is ignored (a notification
 * never gets a reply, decision D11). The `logging` capability is offered in minimal mode too.
 */
export const loggingModule: HandlerModule = {
  name: 'logging',
  capabilities: () => ({ logging: {} }),
  register(context) {
    context.methods.request(
      'logging/setLevel',
      parseSetLevelParams,
      ({ params }) => {
        context.log.level = params.level;
        return {};
      },
      UNCAPPED,
    );
    return undefined;
  },
};
