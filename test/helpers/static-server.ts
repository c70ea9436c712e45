import { readFile } from 'node:fs/promises';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join, normalize } from 'node:path';

/** A local HTTP server for release files: a directory, with some paths answered otherwise. */
export interface StaticServer {
  readonly url: string;
  /** The request paths seen, in order. */
  readonly requests: string[];
  close(): Promise<void>;
}

/**
 * Serves `dir` on 127.0.0.1 (a random port). `overrides` maps a path (`/name`) to the bytes
 * to send instead; a path under `prefix` is looked up with the prefix removed.
 */
export async function serveDirectory(
  dir: string,
  overrides: Record<string, Buffer> = {},
  prefix = '',
): Promise<StaticServer> {
  const requests: string[] = [];
  const server = createServer(async (request, response) => {
    const path = decodeURIComponent(new URL(request.url ?? '/', 'http://x').pathname);
    requests.push(path);
    const relative = path.startsWith(prefix) ? path.slice(prefix.length) : path;
    const override = overrides[relative];
    try {
      const body = override ?? (await readFile(join(dir, normalize(relative).replace(/^(\.\.[/\\])+/, ''))));
      response.writeHead(200, { 'content-length': body.length });
      response.end(body);
    } catch {
      response.writeHead(404);
      response.end('not found\n');
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}${prefix}`,
    requests,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}
