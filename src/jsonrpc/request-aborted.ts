/**
 * Why the engine aborted a request's signal: the peer cancelled it, or the session is
 * ending. Its response is suppressed either way; handlers only stop their work.
 */
export class RequestAborted extends Error {
  constructor(
    readonly why: 'cancelled' | 'shutdown',
    message: string,
  ) {
    super(message);
    this.name = 'RequestAborted';
  }
}
