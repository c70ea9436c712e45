import type { JsonRpcErrorObject } from '../spec/rpc-error.js';
import type { EngineOptions } from './engine-options.js';
import type { RequestId } from './messages.js';
import type { MethodHandlers } from './method-handlers.js';
import { serializeError, serializeSuccess } from './response-serializer.js';

/**
 * Serialises the engine's responses, each within the size limit of its method: the
 * handler's own, else the engine's per-method one, else the engine's default. What had to
 * be shrunk or replaced is reported as a warning.
 */
export class ResponseEncoder {
  constructor(
    private readonly handlers: MethodHandlers,
    private readonly options: Pick<EngineOptions, 'maxResponseBytes' | 'maxResponseBytesByMethod' | 'log'>,
  ) {}

  /** A success response; one over the limit (or not serialisable) becomes a -32603 error. */
  success(id: RequestId | null, result: unknown, method: string): string {
    return serializeSuccess(id, result, this.limit(method), this.reportOversize);
  }

  /** An error response; without `method` (the request is not known) the default limit applies. */
  error(id: RequestId | null, error: JsonRpcErrorObject, method?: string): string {
    return serializeError(id, error, this.limit(method), this.reportOversize);
  }

  private readonly reportOversize = (message: string): void => this.options.log('warning', message);

  private limit(method: string | undefined): number {
    if (method === undefined) return this.options.maxResponseBytes;
    return (
      this.handlers.request(method)?.options.maxResponseBytes ??
      this.options.maxResponseBytesByMethod?.get(method) ??
      this.options.maxResponseBytes
    );
  }
}
