import { randomBytes } from 'node:crypto';
import { ErrorCode } from '../spec/error-codes.js';
import { RpcError } from '../spec/rpc-error.js';
import { type RequestId, requestKey } from './messages.js';

export interface OutgoingRequestOptions {
  readonly timeoutMs: number;
  readonly signal?: AbortSignal;
}

/** The peer did not answer one of our requests in time. */
class RequestTimeoutError extends Error {
  constructor(method: string, timeoutMs: number) {
    super(`${method}: no response within ${timeoutMs} ms`);
    this.name = 'RequestTimeoutError';
  }
}

interface Pending {
  resolve(result: unknown): void;
  reject(error: Error): void;
}

/**
 * The requests we send to the peer (roots/list, elicitation/create), each settled once by
 * its response, its timeout, its abort signal or the end of the session. Their ids are
 * random (`mcpbash-` and 96 random bits), so nobody but the peer that received a request
 * can answer it: a forged answer to a guessed id would otherwise be taken for the client's.
 */
export class OutgoingRequests {
  private readonly pending = new Map<string, Pending>();
  private closed = false;

  /** `send` writes the request; the promise settles with the peer's result (RpcError for an error reply). */
  start(
    method: string,
    params: object | undefined,
    options: OutgoingRequestOptions,
    send: (message: object) => void,
  ): Promise<unknown> {
    if (this.closed) return Promise.reject(new Error('the session has ended'));
    const id = `mcpbash-${randomBytes(12).toString('base64url')}`;
    const key = requestKey(id);
    return new Promise((resolve, reject) => {
      const finish = () => {
        clearTimeout(timer);
        options.signal?.removeEventListener('abort', onAbort);
        this.pending.delete(key);
      };
      const timer = setTimeout(() => {
        finish();
        reject(new RequestTimeoutError(method, options.timeoutMs));
      }, options.timeoutMs);
      const onAbort = () => {
        finish();
        reject(options.signal?.reason instanceof Error ? options.signal.reason : new Error('aborted'));
      };
      if (options.signal?.aborted) {
        onAbort();
        return;
      }
      options.signal?.addEventListener('abort', onAbort, { once: true });
      this.pending.set(key, {
        resolve: (result) => {
          finish();
          resolve(result);
        },
        reject: (error) => {
          finish();
          reject(error);
        },
      });
      send(params === undefined ? { jsonrpc: '2.0', id, method } : { jsonrpc: '2.0', id, method, params });
    });
  }

  /** Settles the request a response answers; false when it is not ours (or no longer pending). */
  settle(id: RequestId, response: { result?: unknown; error?: unknown }): boolean {
    const pending = this.pending.get(requestKey(id));
    if (!pending) return false;
    const error = response.error;
    if (typeof error === 'object' && error !== null) {
      const { code, message, data } = error as { code?: unknown; message?: unknown; data?: unknown };
      pending.reject(
        new RpcError(
          typeof code === 'number' ? code : ErrorCode.InternalError,
          typeof message === 'string' ? message : 'Unknown error',
          data,
        ),
      );
    } else {
      pending.resolve(response.result);
    }
    return true;
  }

  /** Fails every pending request and refuses new ones: the session has ended. */
  close(): void {
    this.closed = true;
    for (const pending of [...this.pending.values()]) pending.reject(new Error('the session has ended'));
  }
}
