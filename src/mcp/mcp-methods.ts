import type {
  HandlerOptions,
  JsonRpcEngine,
  NotificationHandler,
  ParamsParser,
  RequestHandler,
} from '../jsonrpc/engine.js';
import type { JsonRpcParams } from '../jsonrpc/messages.js';
import { toWireError } from './wire-errors.js';

/**
 * How MCP areas register their methods: every request with the parser of its params (a
 * bad request is one -32602 naming the field, before the request waits for a slot), and
 * project or provider failures turned into JSON-RPC errors on the way out.
 */
export class McpMethods {
  constructor(private readonly engine: JsonRpcEngine) {}

  request<P>(method: string, params: ParamsParser<P>, handler: RequestHandler<P>, options: HandlerOptions = {}): void {
    this.engine.setRequestHandler<P>(
      method,
      (request) => {
        // A handler that answers without waiting is not made to wait: its reply keeps its
        // place among the replies (initialize before a later request's params error).
        try {
          const returned = handler(request);
          return returned instanceof Promise
            ? returned.catch((error: unknown) => {
                throw toWireError(error);
              })
            : returned;
        } catch (error) {
          throw toWireError(error);
        }
      },
      { ...options, params },
    );
  }

  /** A notification; params the parser cannot use (undefined) drop it, as no answer is possible. */
  notification<P>(
    method: string,
    params: (params: JsonRpcParams | undefined) => P | undefined,
    handler: (params: P) => void,
  ): void {
    const dispatch: NotificationHandler = (raw) => {
      const parsed = params(raw);
      if (parsed !== undefined) handler(parsed);
    };
    this.engine.setNotificationHandler(method, dispatch);
  }
}
