import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import t from 'tap';
import { healthReportSchema } from '../../helpers/cli-output-schemas.js';
import { matchesSchema } from '../../helpers/cli-projects.js';
import { fixtureProject } from '../../helpers/fixtures.js';
import {
  connectHttpClient,
  initializeBody,
  postHeaders,
  startHttpServer,
  startToolsServer,
} from '../../helpers/http-server.js';
import { eventually, isAlive } from '../../helpers/processes.js';
import { runBinary, toolEnv } from '../../helpers/run-binary.js';
import { scratchDir } from '../../helpers/scratch.js';

// `mcp-bash serve --http` as a command: what it refuses to start with, and how it stops.

t.test('refuses a non-loopback address without a token, a short token, a bad address', async (t) => {
  const env = toolEnv({ MCPBASH_PROJECT_ROOT: fixtureProject('tools') });
  const open = await runBinary(['serve', '--http', '0.0.0.0:0'], { env });
  t.equal(open.code, 2, 'a usage error');
  t.match(open.stderr, /refusing to listen on 0\.0\.0\.0 without MCPBASH_HTTP_TOKEN/);
  t.match(open.stderr, /--insecure/, 'the way out is named');
  t.equal(open.stdout, '');
  const short = await runBinary(['serve', '--http', '0'], { env: { ...env, MCPBASH_HTTP_TOKEN: 'short' } });
  t.equal(short.code, 2);
  t.match(short.stderr, /MCPBASH_HTTP_TOKEN is 5 characters long; it needs at least 32/);
  const bad = await runBinary(['serve', '--http', 'host:port'], { env });
  t.equal(bad.code, 2);
  t.match(bad.stderr, /is not \[HOST:\]PORT/);
  const stray = await runBinary(['serve', '--stateless'], { env });
  t.equal(stray.code, 2);
  t.match(stray.stderr, /go with --http/);
  const help = await runBinary(['serve', '--help'], { env });
  t.equal(help.code, 0);
  t.match(help.stdout, /--http \[HOST:\]PORT/);

  // --insecure accepts it; MCPBASH_HTTP_LISTEN works as --http does.
  const insecure = await startHttpServer(t, {
    env: { ...env, MCPBASH_HTTP_LISTEN: '0.0.0.0:0' },
    args: ['--insecure'],
  });
  t.match(insecure.url, /^http:\/\/0\.0\.0\.0:\d+\/mcp$/);
  t.equal(await insecure.stop(), 143);
});

t.test('SIGTERM: running calls finish within MCPBASH_SHUTDOWN_TIMEOUT, the rest are stopped', async (t) => {
  const server = await startToolsServer(t, { MCPBASH_SHUTDOWN_TIMEOUT: '3' }, ['--path', '/rpc']);
  t.match(server.url, /\/rpc$/, '--path moves the endpoint');
  const { client } = await connectHttpClient(server.url);
  const marker = join(scratchDir('mcpbash-http-term-'), 'm');
  let started!: () => void;
  const running = new Promise<void>((resolve) => {
    started = resolve;
  });
  const short = client.callTool({ name: 'slow', arguments: { seconds: 2 } }, undefined, {
    onprogress: () => started(),
  });
  const long = client.callTool({ name: 'slow', arguments: { seconds: 60, marker } }).catch((error: Error) => error);
  await running;
  await eventually(() => existsSync(`${marker}.pid`), 10_000);
  const pid = Number(readFileSync(`${marker}.pid`, 'utf8'));
  server.child.kill('SIGTERM');
  // While the calls drain, the listener still answers: a load balancer that has not yet
  // taken the replica out gets a 503 to retry elsewhere, not a refused connection.
  await eventually(() => /stopping: running calls may finish/.test(server.stderr()), 10_000);
  const refused = await fetch(server.url, { method: 'POST', headers: postHeaders(), body: initializeBody() });
  t.equal(refused.status, 503, 'a new request during the drain gets 503');
  t.equal(refused.headers.get('retry-after'), '5');
  // 1.x's -32003 "Server shutting down" (D223), as the calls cut at the deadline get.
  t.match(await refused.json(), { jsonrpc: '2.0', id: null, error: { code: -32003, message: /shutting down/ } });
  const ready = await fetch(`${server.origin}/readyz`);
  t.equal(ready.status, 503, '/readyz fails during the drain');
  const readyReport = (await ready.json()) as Record<string, unknown>;
  t.same(readyReport, { schemaVersion: 1, status: 'unhealthy', reason: 'shutting-down' });
  t.equal(Object.keys(readyReport)[0], 'schemaVersion', 'schemaVersion first, as in every report');
  matchesSchema(t, readyReport, healthReportSchema, "the drain's /readyz body is a health report");
  const alive = await fetch(`${server.origin}/healthz`);
  t.equal(alive.status, 200, '/healthz still says alive');
  await alive.text();
  const finished = await short;
  t.match(finished.content, [{ text: 'finished after 2 s' }], 'the short call finished during the drain');
  t.equal(await server.exited, 143, 'the exit status says SIGTERM');
  t.notOk(isAlive(pid), 'the call past the deadline had its tool stopped');
  t.match(await long, { message: /session ended before this request was answered/ }, 'and was told so');
  t.match(server.stderr(), /stopping: running calls may finish/);
});
