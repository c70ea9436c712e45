import { levelFromSetLevelParams } from '../logging.js';
import type { HandlerModule } from '../server-context.js';

/**
 * `logging/setLevel`; a client-sent `notifications/message` is ignored (a notification
 * never gets a reply, decision D11).
 */
export const loggingModule: HandlerModule = (context) => {
  context.engine.setRequestHandler('logging/setLevel', ({ params }) => {
    context.log.level = levelFromSetLevelParams(params);
    return {};
  });
};
