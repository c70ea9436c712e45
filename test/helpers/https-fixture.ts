/**
 * A local HTTPS server on 127.0.0.1 with a throw-away self-signed certificate, for the
 * https provider and mcp_download_safe tests. It is reached only through the test-only
 * MCPBASH_TEST_ONLY_LOOPBACK_TARGETS override; no traffic leaves the machine.
 */
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:https';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';

/** The name the fake resolver maps to 127.0.0.1 (".invalid" never resolves for real). */
export const TEST_HOST = 'mcp-test.invalid';

export interface HttpsFixture {
  readonly port: number;
  readonly caFile: string;
  /** Request paths seen, in order. */
  readonly requests: string[];
  /** TCP connections accepted (each download attempt opens one). */
  readonly connections: number;
  /** User-Agent of the last request. */
  lastUserAgent: string;
  close(): Promise<void>;
}

function makeCertificate(dir: string): { key: Buffer; cert: Buffer; caFile: string } {
  const keyFile = join(dir, 'key.pem');
  const caFile = join(dir, 'cert.pem');
  execFileSync(
    'openssl',
    [
      'req',
      '-x509',
      '-newkey',
      'rsa:2048',
      '-nodes',
      '-days',
      '2',
      '-subj',
      `/CN=${TEST_HOST}`,
      '-addext',
      `subjectAltName=DNS:${TEST_HOST},IP:127.0.0.1`,
      '-keyout',
      keyFile,
      '-out',
      caFile,
    ],
    { stdio: 'ignore' },
  );
  return { key: readFileSync(keyFile), cert: readFileSync(caFile), caFile };
}

/**
 * Routes: /ok, /bytes/N (Content-Length), /stream/N (chunked), /redirect (relative),
 * /redirect-abs, /status/N, /slow (answers after 5 s), /hang (never answers), /ua (echoes
 * the User-Agent).
 */
export async function startHttpsFixture(dir: string): Promise<HttpsFixture> {
  const { key, cert, caFile } = makeCertificate(dir);
  const requests: string[] = [];
  const fixture = { requests, lastUserAgent: '', connections: 0 } as {
    requests: string[];
    lastUserAgent: string;
    connections: number;
  };
  const server: Server = createServer({ key, cert }, (request, response) => {
    requests.push(request.url ?? '/');
    const url = (request.url ?? '/').split('?')[0] ?? '/';
    fixture.lastUserAgent = request.headers['user-agent'] ?? '';
    let match: RegExpMatchArray | null;
    if (url === '/ok') {
      response.writeHead(200, { 'content-type': 'text/plain' }).end('hello over https\n');
    } else if ((match = url.match(/^\/bytes\/(\d+)$/))) {
      const body = Buffer.alloc(Number(match[1]), 'a');
      response.writeHead(200, { 'content-length': body.length }).end(body);
    } else if ((match = url.match(/^\/stream\/(\d+)$/))) {
      response.writeHead(200, { 'transfer-encoding': 'chunked' });
      let left = Number(match[1]);
      const pump = () => {
        while (left > 0) {
          const size = Math.min(left, 1024);
          left -= size;
          if (!response.write(Buffer.alloc(size, 'b'))) return void response.once('drain', pump);
        }
        response.end();
      };
      pump();
    } else if (url === '/redirect') {
      response.writeHead(302, { location: '/ok' }).end();
    } else if (url === '/redirect-abs') {
      response.writeHead(301, { location: 'https://elsewhere.example/target' }).end();
    } else if ((match = url.match(/^\/status\/(\d+)$/))) {
      response.writeHead(Number(match[1])).end('error body');
    } else if (url === '/slow') {
      const timer = setTimeout(() => response.writeHead(200).end('late'), 5000);
      response.on('close', () => clearTimeout(timer));
    } else if (url === '/hang') {
      // Headers never come; closeAllConnections() ends it when the fixture closes.
    } else if (url === '/ua') {
      response.writeHead(200).end(fixture.lastUserAgent);
    } else {
      response.writeHead(404).end('not found');
    }
  });
  server.on('connection', () => {
    fixture.connections += 1;
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return Object.assign(fixture, {
    port,
    caFile,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  });
}

/**
 * A fake `getent` for PATH: TEST_HOST is 127.0.0.1, rebind.invalid answers one public and
 * one private address, public.invalid a public one; anything else does not resolve. Every
 * lookup is appended to LOG.
 */
export function fakeGetentScript(log: string): string {
  return [
    `printf '%s\\n' "$*" >> '${log}'`,
    '[ "$1" = ahosts ] || exit 2',
    'case "$2" in',
    `${TEST_HOST}) printf '127.0.0.1       STREAM ${TEST_HOST}\\n127.0.0.1       DGRAM\\n' ;;`,
    "rebind.invalid) printf '93.184.216.34   STREAM rebind.invalid\\n10.0.0.5        STREAM\\n' ;;",
    'public.invalid | git.example.invalid) printf \'93.184.216.34   STREAM %s\\n\' "$2" ;;',
    '*) exit 2 ;;',
    'esac',
  ].join('\n');
}

/**
 * Serves the bare repositories under ROOT over smart HTTP (git http-backend as a CGI) on
 * the same kind of local HTTPS server, so the git provider can run a real shallow fetch.
 */
export async function startGitHttpsFixture(
  dir: string,
  root: string,
): Promise<{ port: number; caFile: string; close(): Promise<void> }> {
  const { spawn } = await import('node:child_process');
  const { key, cert, caFile } = makeCertificate(dir);
  const server: Server = createServer({ key, cert }, (request, response) => {
    const [pathInfo = '/', query = ''] = (request.url ?? '/').split('?');
    const cgi = spawn('git', ['http-backend'], {
      env: {
        PATH: process.env.PATH,
        GIT_PROJECT_ROOT: root,
        GIT_HTTP_EXPORT_ALL: '1',
        REQUEST_METHOD: request.method ?? 'GET',
        PATH_INFO: decodeURIComponent(pathInfo),
        QUERY_STRING: query,
        CONTENT_TYPE: request.headers['content-type'] ?? '',
        HTTP_CONTENT_ENCODING: request.headers['content-encoding'] ?? '',
        GIT_PROTOCOL: String(request.headers['git-protocol'] ?? ''),
        REMOTE_ADDR: '127.0.0.1',
      },
    });
    request.pipe(cgi.stdin);
    const chunks: Buffer[] = [];
    cgi.stdout.on('data', (chunk: Buffer) => chunks.push(chunk));
    cgi.on('close', () => {
      const output = Buffer.concat(chunks);
      const split = output.indexOf('\r\n\r\n');
      const head = output.subarray(0, split).toString('latin1');
      const headers: Record<string, string> = {};
      let status = 200;
      for (const line of head.split('\r\n')) {
        const colon = line.indexOf(':');
        const name = line.slice(0, colon).trim();
        const value = line.slice(colon + 1).trim();
        if (name.toLowerCase() === 'status') status = Number.parseInt(value, 10);
        else if (name) headers[name] = value;
      }
      response.writeHead(status, headers).end(output.subarray(split + 4));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    port,
    caFile,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
