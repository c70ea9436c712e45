import { existsSync, readFileSync } from 'node:fs';
import { request } from 'node:http';
import { connect } from 'node:net';
import { join } from 'node:path';
import t from 'tap';
import {
  initializeBody,
  postHeaders,
  rawSession,
  readUntil,
  sseMessages,
  startToolsServer,
} from '../../helpers/http-server.js';
import { eventually, isAlive } from '../../helpers/processes.js';
import { scratchDir } from '../../helpers/scratch.js';

// Bad input over HTTP, and the sessions' lifecycle: every refusal has its status and a
// JSON-RPC error body, nothing reaches a session it should not, and a session's tools
// stop when its client goes away, its session ends or idles out.

const TOKEN = 'a'.repeat(24) + 'b'.repeat(24);
const AUTH = { authorization: `Bearer ${TOKEN}` };
const VERSION = { 'mcp-protocol-version': '2025-11-25' };

/** The pid the `slow` tool wrote, once it has. */
async function toolPid(marker: string): Promise<number> {
  await eventually(() => existsSync(`${marker}.pid`), 10_000);
  return Number(readFileSync(`${marker}.pid`, 'utf8'));
}

/** A session id as the server's log shows it (its first 8 characters). */
function logId(id: string): string {
  return `${id.slice(0, 8)}…`;
}

function markerPath(): string {
  return join(scratchDir('mcpbash-http-slow-'), 'm');
}

function toolsCall(id: number, name: string, args: object): string {
  return JSON.stringify({
    jsonrpc: '2.0',
    id,
    method: 'tools/call',
    params: { name, arguments: args, _meta: { progressToken: `p${id}` } },
  });
}

/** A request with a Host header of our choosing (fetch does not let us set it). */
function withHost(url: string, host: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const req = request(url, { method: 'POST', headers: { ...postHeaders(AUTH), host } }, (res) => {
      res.resume();
      resolve(res.statusCode ?? 0);
    });
    req.on('error', reject);
    req.end(initializeBody());
  });
}

t.test('refusals: token, Origin, Host, session, version header, body, JSON, media types', async (t) => {
  const server = await startToolsServer(t, {
    MCPBASH_HTTP_TOKEN: TOKEN,
    MCPBASH_HTTP_MAX_BODY_BYTES: '2048',
    MCPBASH_HTTP_ALLOWED_ORIGINS: 'https://app.example',
    MCPBASH_HTTP_MAX_SESSIONS: '2',
  });
  const post = (headers: Record<string, string>, body: string) =>
    fetch(server.url, { method: 'POST', headers: postHeaders(headers), body });
  // The transport's refusals carry -32000, as the official SDK's server does; an unknown
  // session 404 carries -32001, the SDK's "Session not found" code (D223).
  const refused = async (response: Response, status: number, message: RegExp) => {
    t.equal(response.status, status, `${status} ${message}`);
    const code = status === 404 ? -32001 : -32000;
    t.match(await response.json(), { jsonrpc: '2.0', id: null, error: { code, message } });
  };

  const missing = await post({}, initializeBody());
  t.match(missing.headers.get('www-authenticate'), /^Bearer/);
  await refused(missing, 401, /bearer token required/);
  await refused(await post({ authorization: `Bearer ${TOKEN}x` }, initializeBody()), 401, /invalid bearer token/);
  await refused(await post({ ...AUTH, origin: 'http://evil.example' }, initializeBody()), 403, /Origin/);
  t.equal(await withHost(server.url, 'rebound.example:80'), 403, 'a rebound DNS name as Host is refused');

  const fromApp = await post({ ...AUTH, origin: 'https://app.example' }, initializeBody());
  t.equal(fromApp.status, 200, 'an allowed origin gets in');
  t.equal(fromApp.headers.get('access-control-allow-origin'), 'https://app.example');
  await fromApp.text();

  const session = await rawSession(server.url, AUTH);
  const inSession = { ...AUTH, ...VERSION, 'mcp-session-id': session };
  const ping = JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'ping' });
  const pong = await post(inSession, ping);
  t.equal(pong.status, 200);
  t.same(await pong.json(), { jsonrpc: '2.0', id: 2, result: {} }, 'a good request still works');

  await refused(await post({ ...AUTH, ...VERSION }, ping), 400, /Mcp-Session-Id header is required/);
  await refused(await post({ ...inSession, 'mcp-session-id': 'nope' }, ping), 404, /no such session/);
  await refused(await post({ ...inSession, 'mcp-protocol-version': '1999-01-01' }, ping), 400, /MCP-Protocol-Version/);
  await refused(await post(inSession, `[${'1,'.repeat(1200)}1]`), 413, /exceeds 2048 bytes/);
  const malformed = await post(inSession, '{"jsonrpc":"2.0","id":3,');
  t.equal(malformed.status, 400);
  t.match(await malformed.json(), { error: { code: -32700 } }, 'malformed JSON: a parse error');
  // JSON, but no JSON-RPC message: the transport requires an HTTP error status, not a 200.
  for (const body of ['[]', 'null', '42', '"ping"', '{"jsonrpc":"2.0","id":4}', '{"jsonrpc":"2.0","method":5}']) {
    const invalid = await post(inSession, body);
    t.equal(invalid.status, 400, `${body}: 400`);
    t.match(await invalid.json(), { jsonrpc: '2.0', id: null, error: { code: -32600, message: /^Invalid Request/ } });
  }
  await refused(await post({ ...inSession, 'content-type': 'text/plain' }, ping), 415, /application\/json/);
  await refused(await post({ ...inSession, accept: 'text/html' }, ping), 406, /Not Acceptable/);
  const put = await fetch(server.url, { method: 'PUT', headers: inSession });
  t.equal(put.status, 405);
  t.match(put.headers.get('allow'), /POST/);
  await put.text();

  const again = await post(inSession, ping);
  t.equal(again.status, 200, 'the session survived all of that');
  await again.text();
  // Both sessions are open, one never initialized: a new one takes its place.
  const evicting = await post(AUTH, initializeBody());
  t.equal(evicting.status, 200, 'a session never initialized makes room for a new one');
  await evicting.text();
  const bare = { ...AUTH, ...VERSION, 'mcp-session-id': fromApp.headers.get('mcp-session-id') as string };
  await refused(await post(bare, ping), 404, /no such session/);
  const initialized = JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' });
  const done = await post(
    { ...AUTH, ...VERSION, 'mcp-session-id': evicting.headers.get('mcp-session-id') as string },
    initialized,
  );
  t.equal(done.status, 202);
  await done.text();
  const full = await post(AUTH, initializeBody());
  t.equal(full.headers.get('retry-after'), '5');
  await refused(full, 503, /too many sessions/);
  const deleted = await fetch(server.url, { method: 'DELETE', headers: inSession });
  t.equal(deleted.status, 200);
  await refused(await post(inSession, ping), 404, /no such session/);
  const room = await post(AUTH, initializeBody());
  t.equal(room.status, 200, 'an ended session makes room for a new one');
  await room.text();
});

t.test('a session ends its tools: client gone mid-stream, DELETE, idle timeout', async (t) => {
  const server = await startToolsServer(t, {
    MCPBASH_HTTP_RESUME_GRACE_SECS: '0',
    MCPBASH_HTTP_SESSION_IDLE_SECS: '1',
  });
  const session = await rawSession(server.url);
  const headers = postHeaders({ ...VERSION, 'mcp-session-id': session });
  const gone = markerPath();
  const controller = new AbortController();
  const response = await fetch(server.url, {
    method: 'POST',
    headers,
    body: toolsCall(5, 'slow', { seconds: 60, marker: gone }),
    signal: controller.signal,
  });
  t.match(response.headers.get('content-type'), /text\/event-stream/, 'progress turns the answer into a stream');
  const reader = (response.body as ReadableStream<Uint8Array>).getReader();
  const first = await readUntil(reader, (text) => sseMessages(text).length > 0);
  t.match(sseMessages(first)[0], { method: 'notifications/progress', params: { progressToken: 'p5' } });
  const pid = await toolPid(gone);
  controller.abort();
  t.ok(await eventually(() => !isAlive(pid), 10_000), "the client disconnected: its call's tool is stopped");
  t.ok(existsSync(`${gone}.cancelled`), 'the tool was cancelled, not left to finish');

  const deleted = markerPath();
  const running = fetch(server.url, {
    method: 'POST',
    headers,
    body: toolsCall(6, 'slow', { seconds: 60, marker: deleted }),
  });
  const deletedPid = await toolPid(deleted);
  const end = await fetch(server.url, { method: 'DELETE', headers });
  t.equal(end.status, 200);
  t.notOk(isAlive(deletedPid), 'DELETE answers once the session tools are stopped');
  t.match(
    await (await running).text(),
    /"id":6,"error":\{"code":-32003,"message":"The session ended before this request was answered"/,
    'the call cut short by DELETE is answered with an error, not left hanging',
  );

  const idle = await rawSession(server.url);
  t.ok(
    await eventually(
      () => server.stderr().includes(`session ${logId(idle)} idle`) && !server.stderr().includes(idle),
      10_000,
    ),
    'an unused session ends after MCPBASH_HTTP_SESSION_IDLE_SECS',
  );
  const late = await fetch(server.url, {
    method: 'POST',
    headers: postHeaders({ ...VERSION, 'mcp-session-id': idle }),
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'ping' }),
  });
  t.equal(late.status, 404, 'its id is unknown from then on');
  await late.text();
});

/** Sends `bytes` on a fresh connection and resolves with everything read until the server closes it. */
function rawExchange(url: string, bytes: string): Promise<string> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve, reject) => {
    const socket = connect({ host: hostname, port: Number(port) }, () => socket.write(bytes));
    let answer = '';
    socket.setEncoding('utf8');
    socket.on('data', (chunk: string) => {
      answer += chunk;
    });
    socket.on('error', reject);
    socket.on('close', () => resolve(answer));
  });
}

/** The status and the JSON body of a raw HTTP answer. */
function parseRaw(answer: string): { status: number; type: string | undefined; body: unknown } {
  const [head = '', body = ''] = answer.split('\r\n\r\n');
  return {
    status: Number(/^HTTP\/1\.1 (\d+)/.exec(head)?.[1]),
    type: /^content-type: *(.*)$/im.exec(head)?.[1],
    body: body === '' ? undefined : JSON.parse(body),
  };
}

t.test('requests node:http turns away get their status and a JSON-RPC error body too', async (t) => {
  const server = await startToolsServer(t, { MCPBASH_HTTP_REQUEST_TIMEOUT_SECS: '0.5' });
  const path = new URL(server.url).pathname;
  const error = (message: RegExp) => ({ jsonrpc: '2.0', error: { code: -32000, message }, id: null });
  const post = `POST ${path} HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: 100\r\n`;
  const json = 'Content-Type: application/json\r\nAccept: application/json, text/event-stream\r\n';
  const slow = parseRaw(await rawExchange(server.url, `${post}${json}\r\nabcd`));
  t.match(slow, { status: 408, type: 'application/json', body: error(/^Request Timeout/) }, 'a body that never ends');
  const refused = await rawExchange(server.url, `${post}\r\nabcd`);
  t.match(parseRaw(refused), { status: 415 }, 'refused before its body: answered at once');
  t.equal(
    refused.match(/HTTP\/1\.1/g)?.length,
    1,
    'and only once: when its body times out, the connection just closes',
  );
  const bigHeader = `GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Big: ${'a'.repeat(20_000)}\r\n\r\n`;
  t.match(
    parseRaw(await rawExchange(server.url, bigHeader)),
    { status: 431, type: 'application/json', body: error(/^Request Header Fields Too Large/) },
    'a 20 KB header',
  );
  t.match(
    parseRaw(await rawExchange(server.url, 'NOT HTTP AT ALL\r\n\r\n')),
    { status: 400, type: 'application/json', body: error(/^Bad Request/) },
    'a request line that is not HTTP',
  );
});

t.test('a session not initialized within MCPBASH_HTTP_REQUEST_TIMEOUT_SECS ends', async (t) => {
  const server = await startToolsServer(t, {
    MCPBASH_HTTP_REQUEST_TIMEOUT_SECS: '0.5',
    MCPBASH_HTTP_MAX_SESSIONS: '2',
  });
  const ping = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'ping' });
  const post = (session: string) =>
    fetch(server.url, { method: 'POST', headers: postHeaders({ ...VERSION, 'mcp-session-id': session }), body: ping });

  const ready = await rawSession(server.url);
  const init = await fetch(server.url, { method: 'POST', headers: postHeaders(), body: initializeBody() });
  t.equal(init.status, 200);
  await init.text();
  const bare = init.headers.get('mcp-session-id') as string;
  t.ok(
    await eventually(() => server.stderr().includes(`session ${logId(bare)} not initialized within 0.5s`), 10_000),
    'initialize without notifications/initialized: the session ends',
  );
  const late = await post(bare);
  t.equal(late.status, 404, 'its id is unknown from then on');
  await late.text();
  const alive = await post(ready);
  t.equal(alive.status, 200, 'an initialized session older than the bound goes on');
  await alive.text();
  t.notOk(server.stderr().includes(`session ${logId(ready)} not initialized`));
});
