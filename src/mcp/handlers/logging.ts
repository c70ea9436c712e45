import type { JsonRpcParams } from '../../jsonrpc/messages.js';
import { LOGGING_LEVELS, parseLoggingLevel } from '../../spec/logging-levels.js';
import type { SetLevelParams } from '../../spec/types.js';
import { invalidParam, paramsObject } from '../params-reader.js';
import type { HandlerModule } from '../server-context.js';
import { UNCAPPED } from './lifecycle.js';

/** `logging/setLevel`: the level in any case; a missing level means info (as 1.x did). */
function parseSetLevelParams(params: JsonRpcParams | undefined): SetLevelParams {
  const raw = paramsObject(params).level;
  if (raw === undefined || raw === null) return { level: 'info' };
  const level = parseLoggingLevel(raw);
  if (!level) throw invalidParam('level', 'Invalid log level', { level: raw, valid: LOGGING_LEVELS });
  return { level };
}

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
