import { copyFileSync, mkdirSync, realpathSync } from 'node:fs';
import { join } from 'node:path';
import t from 'tap';
import { healthReportSchema } from '../../helpers/cli-output-schemas.js';
import { matchesSchema } from '../../helpers/cli-projects.js';
import { fixtureProject, fixtureSource } from '../../helpers/fixtures.js';
import { InProcessServer } from '../../helpers/in-process-server.js';
import type { McpSession } from '../../helpers/mcp-session.js';
import { isolatedEnv, runBinary, toolEnv } from '../../helpers/run-binary.js';

const TOKEN = '0123456789abcdef0123456789abcdef-remote';
const withToken = (params: Record<string, unknown> = {}, key = 'mcpbash/remoteToken', token = TOKEN) => ({
  ...params,
  _meta: { [key]: token },
});
const initParams = { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 't', version: '1' } };

async function initialized(env: NodeJS.ProcessEnv): Promise<McpSession> {
  const server = new InProcessServer({ projectRoot: fixtureProject('tools'), env });
  const init = await server.request('initialize', withToken(initParams));
  if (init.error) throw new Error(`initialize failed: ${JSON.stringify(init.error)}`);
  server.notify('notifications/initialized', withToken());
  return server;
}

t.test('MCPBASH_REMOTE_TOKEN: every request, initialize included, must carry the token', async (t) => {
  const server = new InProcessServer({
    projectRoot: fixtureProject('tools'),
    env: toolEnv({ MCPBASH_REMOTE_TOKEN: TOKEN }),
  });
  const refused = { code: -32602, message: 'Remote token missing or invalid' };
  t.same((await server.request('initialize', initParams)).error, refused, 'initialize without the token');
  t.same((await server.request('ping')).error, refused, 'ping without the token');
  t.same(
    (await server.request('initialize', withToken(initParams, 'mcpbash/remoteToken', `${TOKEN}x`))).error,
    refused,
    'a wrong token',
  );
  t.match((await server.request('initialize', withToken(initParams))).result, { protocolVersion: '2025-11-25' });
  server.notify('notifications/initialized', withToken());
  t.same((await server.request('tools/list')).error, refused, 'after initialize too');
  t.match((await server.request('tools/list', withToken())).result, { tools: [] });
  t.same((await server.request('ping', withToken({}, 'remoteToken'))).result, {}, 'the fallback key');
  t.match(server.stderr, /warning: mcp\.auth: refused ping: remote token missing or invalid/);
  t.notMatch(server.stderr, new RegExp(TOKEN), 'the secret is never logged');
  await server.close();
  t.same(server.protocolViolations, []);
});

t.test('notifications without a valid token are dropped silently', async (t) => {
  const server = new InProcessServer({
    projectRoot: fixtureProject('tools'),
    env: toolEnv({ MCPBASH_REMOTE_TOKEN: TOKEN }),
  });
  await server.request('initialize', withToken(initParams));
  server.notify('notifications/initialized');
  t.match(
    (await server.request('tools/list', withToken())).error,
    { code: -32000 },
    'an initialized without the token did not count',
  );
  server.notify('notifications/initialized', withToken());
  t.match((await server.request('tools/list', withToken())).result, { tools: [] });
  t.equal(
    server.messages.filter((m) => m.method === undefined && (m.id === undefined || m.id === null)).length,
    0,
    'nothing answered the notifications',
  );
  await server.close();
});

t.test('tools never see the token in MCP_TOOL_META_JSON', async (t) => {
  const server = await initialized(toolEnv({ MCPBASH_REMOTE_TOKEN: TOKEN }));
  const call = await server.request('tools/call', {
    name: 'echo-json',
    arguments: { text: 'hi' },
    _meta: { 'mcpbash/remoteToken': TOKEN, remoteToken: TOKEN, trace: 'x' },
  });
  const echoed = JSON.parse((call.result as { content: Array<{ text: string }> }).content[0]?.text ?? '{}') as {
    meta: unknown;
  };
  t.same(echoed.meta, { trace: 'x' });
  await server.close();
});

t.test('custom keys and the throttle (MCPBASH_REMOTE_TOKEN_MAX_FAILURES_PER_MIN)', async (t) => {
  const server = new InProcessServer({
    projectRoot: fixtureProject('tools'),
    env: toolEnv({
      MCPBASH_REMOTE_TOKEN: TOKEN,
      MCPBASH_REMOTE_TOKEN_KEY: 'acme/token',
      MCPBASH_REMOTE_TOKEN_MAX_FAILURES_PER_MIN: '2',
    }),
  });
  const messages: string[] = [];
  for (let i = 0; i < 4; i += 1) messages.push((await server.request('ping', withToken())).error?.message ?? 'ok');
  t.same(
    messages,
    [
      'Remote token missing or invalid',
      'Remote token missing or invalid',
      'Remote token missing or invalid (throttled)',
      'Remote token missing or invalid (throttled)',
    ],
    'the default key no longer counts; the third failure in a minute is throttled',
  );
  t.same((await server.request('ping', withToken({}, 'acme/token'))).result, {});
  await server.close();
});

t.test('a token shorter than 32 characters is a fatal start-up error; health exits 2', async (t) => {
  const project = fixtureProject('tools');
  const env = isolatedEnv({ MCPBASH_REMOTE_TOKEN: 'too-short', MCPBASH_PROJECT_ROOT: project });
  const serve = await runBinary([], { env, input: `${JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'ping' })}\n` });
  t.equal(serve.code, 1);
  t.equal(serve.stdout, '', 'nothing on stdout');
  t.match(serve.stderr, /MCPBASH_REMOTE_TOKEN is 9 characters long; it must have at least 32/);
  const health = await runBinary(['health'], { env });
  t.equal(health.code, 2);
  const report = JSON.parse(health.stdout);
  t.match(report, { status: 'error', reason: 'remote_token_invalid', message: /at least 32/ });
  matchesSchema(t, report, healthReportSchema, "health --json's documented report");
  const good = await runBinary(['health'], { env: { ...env, MCPBASH_REMOTE_TOKEN: TOKEN } });
  t.equal(good.code, 0, 'a good token: healthy');
});

t.test('in a batch each request is checked on its own', async (t) => {
  const server = new InProcessServer({
    projectRoot: fixtureProject('tools'),
    env: toolEnv({ MCPBASH_REMOTE_TOKEN: TOKEN }),
  });
  await server.request('initialize', withToken({ ...initParams, protocolVersion: '2025-03-26' }));
  server.notify('notifications/initialized', withToken());
  server.send([
    { jsonrpc: '2.0', id: 'with', method: 'ping', params: withToken() },
    { jsonrpc: '2.0', id: 'without', method: 'ping' },
  ]);
  const reply = (await server.waitFor((m) => Array.isArray(m))) as unknown as Array<Record<string, unknown>>;
  t.same(
    reply,
    [
      { jsonrpc: '2.0', id: 'with', result: {} },
      { jsonrpc: '2.0', id: 'without', error: { code: -32602, message: 'Remote token missing or invalid' } },
    ],
    'the request with the token is answered, the one without refused',
  );
  await server.close();
});

t.test(
  'answers to our own requests need the token too (in result._meta), and their ids cannot be guessed',
  async (t) => {
    const project = fixtureProject('tools');
    const server = new InProcessServer({ projectRoot: project, env: toolEnv({ MCPBASH_REMOTE_TOKEN: TOKEN }) });
    await server.request('initialize', withToken({ ...initParams, capabilities: { roots: {} } }));
    server.notify('notifications/initialized', withToken());
    const ask = await server.waitFor((m) => m.method === 'roots/list');
    t.match(ask.id, /^mcpbash-[A-Za-z0-9_-]{16}$/, 'a random id, not 1, 2, ...');
    // A party without the token answers first: file:/// under the real id and guessable ones.
    for (const id of [ask.id, 1, 2, 3]) server.send({ jsonrpc: '2.0', id, result: { roots: [{ uri: 'file:///' }] } });
    const scratch = realpathSync(join(project, 'data'));
    server.send({
      jsonrpc: '2.0',
      id: ask.id,
      result: { roots: [{ uri: `file://${scratch}` }], _meta: { 'mcpbash/remoteToken': TOKEN } },
    });
    const call = await server.request('tools/call', withToken({ name: 'roots-dump', arguments: {} }));
    const dumped = JSON.parse((call.result as { content: Array<{ text: string }> }).content[0]?.text ?? '{}');
    t.same(dumped.paths, [scratch], 'the forged answers were dropped; the genuine one, with the token, was taken');
    t.match(server.stderr, /warning: mcp\.auth: refused a response to our request: remote token missing or invalid/);
    await server.close();
  },
);

t.test('the server secrets never reach tools or providers, whatever the environment mode', async (t) => {
  const modes = [
    {},
    {
      MCPBASH_TOOL_ENV_MODE: 'allowlist',
      MCPBASH_TOOL_ENV_ALLOWLIST: 'MCPBASH_REMOTE_TOKEN MCPBASH_HTTP_TOKEN',
      MCPBASH_PROVIDER_ENV_MODE: 'allowlist',
      MCPBASH_PROVIDER_ENV_ALLOWLIST: 'MCPBASH_REMOTE_TOKEN MCPBASH_HTTP_TOKEN',
    },
    {
      MCPBASH_TOOL_ENV_MODE: 'inherit',
      MCPBASH_TOOL_ENV_INHERIT_ALLOW: 'true',
      MCPBASH_PROVIDER_ENV_MODE: 'inherit',
      MCPBASH_PROVIDER_ENV_INHERIT_ALLOW: 'true',
    },
  ];
  for (const mode of modes) {
    const project = fixtureProject('tools');
    mkdirSync(join(project, 'providers'));
    copyFileSync(join(fixtureSource('resources'), 'providers', 'myapi.sh'), join(project, 'providers', 'myapi.sh'));
    const env = toolEnv({ MCPBASH_REMOTE_TOKEN: TOKEN, MCPBASH_HTTP_TOKEN: 'http-secret-value', ...mode });
    const server = new InProcessServer({ projectRoot: project, env });
    await server.request('initialize', withToken(initParams));
    server.notify('notifications/initialized', withToken());
    const call = await server.request('tools/call', withToken({ name: 'env-dump', arguments: {} }));
    const names = (call.result as { content: Array<{ text: string }> }).content[0]?.text.split('\n') ?? [];
    const label = mode.MCPBASH_TOOL_ENV_MODE ?? 'minimal';
    t.ok(names.includes('MCPBASH_PROJECT_ROOT'), `${label}: the dump is real`);
    t.notOk(names.includes('MCPBASH_REMOTE_TOKEN'), `${label}: no MCPBASH_REMOTE_TOKEN for tools`);
    t.notOk(names.includes('MCPBASH_HTTP_TOKEN'), `${label}: no MCPBASH_HTTP_TOKEN for tools`);
    const read = await server.request('resources/read', withToken({ uri: 'myapi://env' }));
    const providerEnv = (read.result as { contents: Array<{ text: string }> }).contents[0]?.text ?? '';
    t.match(providerEnv, /^MCPBASH_PROJECT_ROOT=/m, `${label}: the provider's dump is real`);
    t.notMatch(
      providerEnv,
      new RegExp(`${TOKEN}|http-secret-value|MCPBASH_REMOTE_TOKEN=`),
      `${label}: nor for providers`,
    );
    await server.close();
  }
});
