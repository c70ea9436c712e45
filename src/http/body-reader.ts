import type { IncomingMessage } from 'node:http';
import { type Refusal, refusal } from './http-replies.js';
import { header } from './request-guards.js';

/**
 * Whether the body is declared JSON. Required, as the official SDK does: a browser can send
 * a cross-site POST without asking first only with form or text types, never with JSON.
 */
export function checkJsonContentType(req: IncomingMessage): Refusal | undefined {
  const type = (header(req, 'content-type') ?? '').split(';')[0]?.trim().toLowerCase() ?? '';
  if (type === 'application/json' || /^application\/[a-z0-9.+-]*\+json$/.test(type)) return undefined;
  return refusal(415, 'Unsupported Media Type: the body must be application/json');
}

/**
 * Reads a request body of at most `maxBytes`: a declared Content-Length over the cap is
 * refused before anything is read, a body that grows past it as soon as it does (413; the
 * caller closes the connection). Memory stays bounded by the cap. A slow body is cut by the
 * server's request timeout (http-server.ts).
 */
export function readBody(req: IncomingMessage, maxBytes: number): Promise<Buffer | Refusal> {
  const tooLarge = refusal(413, `Payload Too Large: the body exceeds ${maxBytes} bytes (MCPBASH_HTTP_MAX_BODY_BYTES)`, {
    Connection: 'close',
  });
  const declared = Number(header(req, 'content-length'));
  if (Number.isFinite(declared) && declared > maxBytes) return Promise.resolve(tooLarge);
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    let size = 0;
    let done = false;
    const finish = (outcome: Buffer | Refusal) => {
      if (done) return;
      done = true;
      req.off('data', onData);
      resolve(outcome);
    };
    const onData = (chunk: Buffer) => {
      size += chunk.length;
      if (size > maxBytes) {
        chunks.length = 0;
        req.pause();
        finish(tooLarge);
        return;
      }
      chunks.push(chunk);
    };
    req.on('data', onData);
    req.once('end', () => finish(Buffer.concat(chunks, size)));
    req.once('error', () => finish(refusal(400, 'Bad Request: the body could not be read')));
    req.once('aborted', () => finish(refusal(400, 'Bad Request: the client aborted the body')));
  });
}
