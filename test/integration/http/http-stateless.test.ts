import { existsSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, request } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import t from 'tap';
import { UI_EXTENSION_ID, UI_MIME_TYPE } from '../../../src/project/ui/ui-resource.js';
import { healthReportSchema } from '../../helpers/cli-output-schemas.js';
import { matchesSchema } from '../../helpers/cli-projects.js';
import { copyProject, fixtureProject } from '../../helpers/fixtures.js';
import { connectHttpClient, postHeaders, startHttpServer, startToolsServer } from '../../helpers/http-server.js';
import { repoRoot } from '../../helpers/paths.js';
import { eventually } from '../../helpers/processes.js';
import { toolEnv } from '../../helpers/run-binary.js';
import { scratchDir } from '../../helpers/scratch.js';

// Scale-out: two --stateless replicas behind a round-robin proxy, as behind any load
// balancer or a Kubernetes Service. No request depends on which replica served the one
// before; the health endpoints answer for probes.

/** A round-robin HTTP proxy over `targets`; counts the requests each one got. */
async function roundRobinProxy(targets: readonly string[]) {
  const served = targets.map(() => 0);
  let next = 0;
  const proxy = createServer((req, res) => {
    const index = next++ % targets.length;
    served[index] = (served[index] ?? 0) + 1;
    const upstream = request(
      new URL(req.url ?? '/', targets[index]),
      { method: req.method, headers: { ...req.headers, host: new URL(targets[index] as string).host } },
      (answer) => {
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(res);
      },
    );
    upstream.on('error', () => {
      res.writeHead(502);
      res.end();
    });
    req.pipe(upstream);
  });
  await new Promise<void>((resolve) => proxy.listen(0, '127.0.0.1', resolve));
  const { port } = proxy.address() as AddressInfo;
  return { url: `http://127.0.0.1:${port}`, served, close: () => proxy.close() };
}

t.test('two stateless replicas behind a round-robin proxy serve one client', async (t) => {
  const replicas = await Promise.all([1, 2].map(() => startToolsServer(t, {}, ['--stateless'])));
  const proxy = await roundRobinProxy(replicas.map((replica) => replica.origin));
  t.teardown(proxy.close);

  const { client, transport } = await connectHttpClient(`${proxy.url}/mcp`);
  t.teardown(() => client.close());
  t.equal(transport.sessionId, undefined, 'no session id');
  t.equal(client.getServerVersion()?.name, 'tools-fixture');
  const capabilities = client.getServerCapabilities();
  t.same(capabilities?.tools, {}, 'no list_changed: nobody could be told');
  t.notOk(capabilities?.resources?.subscribe, 'no subscriptions');
  for (let round = 0; round < 2; round++) {
    const { tools } = await client.listTools();
    t.ok(tools.some((tool) => tool.name === 'echo-json'));
    const echoed = await client.callTool({ name: 'echo-json', arguments: { text: `round ${round}` } });
    t.match(echoed.structuredContent, { args: { text: `round ${round}` } });
  }
  const ticks: number[] = [];
  const slow = await client.callTool({ name: 'slow', arguments: { seconds: 1 } }, undefined, {
    onprogress: (progress) => {
      ticks.push(progress.progress);
    },
  });
  t.match(slow.content, [{ text: 'finished after 1 s' }]);
  t.ok(ticks.length > 0, "progress rides the call's own stream");
  t.ok(
    proxy.served.every((count) => count >= 3),
    `both replicas served the client (${proxy.served.join(', ')})`,
  );

  const subscribe = await fetch(`${proxy.url}/mcp`, {
    method: 'POST',
    headers: postHeaders({ 'mcp-protocol-version': '2025-11-25' }),
    body: JSON.stringify({ jsonrpc: '2.0', id: 9, method: 'resources/subscribe', params: { uri: 'file:///x' } }),
  });
  t.match(await subscribe.json(), { id: 9, error: { code: -32601, message: /stateless/ } });
  for (const method of ['GET', 'DELETE']) {
    const refused = await fetch(`${proxy.url}/mcp`, { method, headers: { accept: 'text/event-stream' } });
    t.equal(refused.status, 405, `${method}: no stream and no session to end`);
    await refused.text();
  }
});

t.test("/readyz in minimal mode: health --json's misconfiguration report, naming what forced it", async (t) => {
  for (const [setting, value, named] of [
    ['MCPBASH_FORCE_MINIMAL', 'true', /^MCPBASH_FORCE_MINIMAL is set: /],
    ['MCPBASH_JSON_TOOL', 'none', /^MCPBASH_JSON_TOOL is none: /],
  ] as const) {
    const server = await startHttpServer(t, {
      env: toolEnv({ MCPBASH_PROJECT_ROOT: fixtureProject('tools'), [setting]: value }),
    });
    const ready = await fetch(`${server.origin}/readyz`);
    t.equal(ready.status, 503);
    const report = await ready.json();
    t.match(report, { schemaVersion: 1, status: 'error', reason: 'json_tool_missing', message: named }, setting);
    matchesSchema(t, report, healthReportSchema, 'the minimal-mode report');
  }
});

t.test('/healthz and /readyz answer probes; /readyz reports what mcp-bash health does', async (t) => {
  const project = fixtureProject('tools');
  // The project's own readiness check: not ready while a `down` file exists, and stuck while
  // a `stuck` file does.
  writeFileSync(
    join(project, 'server.d', 'health-checks.sh'),
    'test ! -e "$MCPBASH_PROJECT_ROOT/down" || exit 1\nif test -e "$MCPBASH_PROJECT_ROOT/stuck"; then sleep 60; fi\n',
    { mode: 0o644 },
  );
  const server = await startHttpServer(t, {
    env: toolEnv({
      MCPBASH_PROJECT_ROOT: project,
      MCPBASH_HTTP_TOKEN: 'x'.repeat(40),
      MCPBASH_HEALTH_TIMEOUT_SECS: '1',
    }),
  });
  const live = await fetch(`${server.origin}/healthz`);
  t.equal(live.status, 200, 'no token needed for probes');
  t.same(await live.json(), { status: 'ok' });
  const ready = await fetch(`${server.origin}/readyz`);
  t.equal(ready.status, 200);
  const readyReport = await ready.json();
  t.match(readyReport, { schemaVersion: 1, status: 'ok', mode: 'full', projectChecks: 'ok' });
  matchesSchema(t, readyReport, healthReportSchema, "/readyz's body is health --json's report");
  writeFileSync(join(project, 'down'), '');
  const notReady = await fetch(`${server.origin}/readyz`);
  t.equal(notReady.status, 503, 'a failing server.d/health-checks.sh takes the replica out');
  const notReadyReport = await notReady.json();
  t.match(notReadyReport, { schemaVersion: 1, status: 'unhealthy', projectChecks: 'failed' });
  matchesSchema(t, notReadyReport, healthReportSchema, 'the unhealthy report too');
  rmSync(join(project, 'down'));
  writeFileSync(join(project, 'stuck'), '');
  const stuck = await fetch(`${server.origin}/readyz`);
  t.equal(stuck.status, 503, 'a check that outlives MCPBASH_HEALTH_TIMEOUT_SECS takes the replica out');
  const stuckReport = await stuck.json();
  t.same(stuckReport, { schemaVersion: 1, status: 'unhealthy', reason: 'timeout', timeoutSecs: 1 });
  matchesSchema(t, stuckReport, healthReportSchema, 'the timeout report too');
  const posted = await fetch(`${server.origin}/readyz`, { method: 'POST' });
  t.equal(posted.status, 405);
  await posted.text();
  const elsewhere = await fetch(`${server.origin}/other`);
  t.equal(elsewhere.status, 404);
  await elsewhere.text();
});

t.test('stateless: MCP Apps views are listed and read, but no request knows the client renders them', async (t) => {
  // docs/REMOTE.md and docs/UI.md say so: a POST after initialize carries no capabilities.
  const root = copyProject(join(repoRoot, 'assets', 'examples', '14-ui-templates'), 'stateless-ui');
  const server = await startHttpServer(t, {
    env: toolEnv({ MCPBASH_PROJECT_ROOT: root }),
    args: ['--http', '127.0.0.1:0', '--stateless'],
  });
  const { client } = await connectHttpClient(server.url, {
    capabilities: { capabilities: { extensions: { [UI_EXTENSION_ID]: { mimeTypes: [UI_MIME_TYPE] } } } },
  });
  t.teardown(() => client.close());
  const { tools } = await client.listTools();
  const board = tools.find((tool) => tool.name === 'example-task-board');
  t.match(board?._meta, { ui: { resourceUri: 'ui://example-ui-templates/example-task-board' } }, '_meta.ui is there');
  t.notOk(
    tools.some((tool) => tool.name === 'example-move-task'),
    'the app-only tool is left out, as for a client without MCP Apps',
  );
  const read = await client.readResource({ uri: 'ui://example-ui-templates/example-task-board' });
  t.match(read.contents, [{ mimeType: UI_MIME_TYPE, text: /<!DOCTYPE html>/ }], 'the view is read');
  const result = await client.callTool({ name: 'example-task-board', arguments: {} });
  t.match(result.content, [{ type: 'text', text: /\[todo\]/ }]);
  t.equal(result.structuredContent, undefined, 'the tool saw MCPBASH_CLIENT_SUPPORTS_UI=0: the text alone');
});

t.test('stateless: each request is a session whose directory goes when it ends', async (t) => {
  const stateDir = join(scratchDir('mcpbash-stateless-'), 'state');
  const server = await startToolsServer(t, { MCPBASH_STATE_DIR: stateDir }, ['--stateless']);
  const { client } = await connectHttpClient(`${server.url}`);
  t.teardown(() => client.close());
  for (let call = 0; call < 5; call++) {
    const echoed = await client.callTool({ name: 'echo-json', arguments: { text: `call ${call}` } });
    t.match(echoed.structuredContent, { args: { text: `call ${call}` } });
  }
  const sessions = () => (existsSync(join(stateDir, 'sessions')) ? readdirSync(join(stateDir, 'sessions')) : []);
  // A session ends just after its answer: wait for the last one to be gone.
  t.ok(await eventually(() => sessions().length === 0), `no session directory is left (${sessions().join(', ')})`);
});
