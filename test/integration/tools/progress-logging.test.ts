import t from 'tap';
import { fixtureProject, projectWithTools } from '../../helpers/fixtures.js';
import { startInProcess } from '../../helpers/in-process-server.js';
import { toolEnv } from '../../helpers/run-binary.js';

t.test("progress reaches the client while the tool runs (D5), with the request's own token", async (t) => {
  const server = await startInProcess({ projectRoot: fixtureProject('tools'), env: toolEnv() });
  const started = Date.now();
  const response = server.request('tools/call', { name: 'progress-live', _meta: { progressToken: 42 } });
  const progress = await server.waitFor((m) => m.method === 'notifications/progress', 5000);
  const arrivedAfter = Date.now() - started;
  t.same(
    progress.params,
    { progressToken: 42, progress: 10, total: 100, message: 'started' },
    'numeric token kept as a number',
  );
  t.notOk(
    server.messages.some(
      (m) =>
        m.id !== undefined &&
        m.method === undefined &&
        m.result !== undefined &&
        (m.result as { content?: unknown }).content,
    ),
    'the result has not come yet',
  );
  t.ok(arrivedAfter < 1500, `arrived after ${arrivedAfter} ms while the tool sleeps 2 s`);
  t.match((await response).result, { content: [{ text: 'done' }] });
  await server.close();
});

t.test('no progressToken, no progress notifications', async (t) => {
  const server = await startInProcess({ projectRoot: fixtureProject('tools'), env: toolEnv() });
  await server.request('tools/call', { name: 'slow', arguments: { seconds: 1 } });
  t.equal(server.notifications('notifications/progress').length, 0);
  await server.close();
});

t.test('MCPBASH_ENABLE_LIVE_PROGRESS=false buffers progress until the tool ends', async (t) => {
  const server = await startInProcess({
    projectRoot: fixtureProject('tools'),
    env: toolEnv({ MCPBASH_ENABLE_LIVE_PROGRESS: 'false' }),
  });
  const response = server.request('tools/call', { name: 'progress-live', _meta: { progressToken: 'p' } });
  // The tool writes its progress, then works 2 s: live, the notification would come ~2 s
  // before the response; buffered, it comes with it.
  await server.waitFor((m) => m.method === 'notifications/progress', 10_000);
  const progressAt = Date.now();
  await response;
  t.ok(Date.now() - progressAt < 500, `nothing while it ran (${Date.now() - progressAt} ms before the result)`);
  const progress = server.notifications('notifications/progress');
  t.equal(progress.length, 1, 'delivered at the end');
  t.ok(
    server.messages.indexOf(progress[0] as never) <
      server.messages.findIndex((m) => m.id !== undefined && (m.result as { content?: unknown })?.content),
    'before the response',
  );
  await server.close();
});

t.test('tool logs are filtered by the log level and rate limited per request', async (t) => {
  const server = await startInProcess({
    projectRoot: fixtureProject('tools'),
    env: toolEnv({ MCPBASH_MAX_LOGS_PER_MIN: '5' }),
  });
  await server.request('logging/setLevel', { level: 'warning' });
  await server.request('tools/call', { name: 'logger', arguments: { burst: 20 } });
  const messages = server
    .notifications('notifications/message')
    .filter((m) => String(m.params?.logger).match(/logger-tool|burst/));
  t.same(
    messages.slice(0, 2).map((m) => m.params),
    [
      { level: 'warning', logger: 'logger-tool', data: 'at warning' },
      { level: 'error', logger: 'logger-tool', data: 'at error' },
    ],
    'debug and info are below the level',
  );
  t.equal(messages.length, 5, 'at most MCPBASH_MAX_LOGS_PER_MIN per request');
  await server.close();
});

t.test('progress is rate limited per request (MCPBASH_MAX_PROGRESS_PER_MIN)', async (t) => {
  const server = await startInProcess({
    projectRoot: fixtureProject('tools'),
    env: toolEnv({ MCPBASH_MAX_PROGRESS_PER_MIN: '1' }),
  });
  await server.request('tools/call', { name: 'slow', arguments: { seconds: 1 }, _meta: { progressToken: 'rl' } });
  t.equal(server.notifications('notifications/progress').length, 1);
  await server.close();
});

t.test('with live progress off, progress still extends the timeout; only delivery waits for the end', async (t) => {
  const server = await startInProcess({
    projectRoot: fixtureProject('tools'),
    env: toolEnv({ MCPBASH_ENABLE_LIVE_PROGRESS: 'false' }),
  });
  const started = Date.now();
  const response = await server.request(
    'tools/call',
    { name: 'progress-ticker', _meta: { progressToken: 'tick' } },
    undefined,
    20_000,
  );
  t.match(response.result, { content: [{ text: 'ticked' }], isError: false }, 'not timed out after 1 s');
  t.ok(Date.now() - started >= 2500, 'it ran its full 2.7 s');
  const progress = server.notifications('notifications/progress');
  t.equal(progress.length, 9, 'every progress line delivered, at the end');
  await server.close();
});

t.test('mcp_progress without a progress token still extends the timeout; the client gets nothing', async (t) => {
  const server = await startInProcess({ projectRoot: fixtureProject('tools'), env: toolEnv() });
  t.teardown(() => server.close());
  const response = await server.request('tools/call', { name: 'sdk-progress-ticker' }, undefined, 20_000);
  t.match(response.result, { content: [{ text: 'ticked' }], isError: false }, 'not timed out after 1 s');
  t.same(server.notifications('notifications/progress'), [], 'no progress notification without a token');
});

t.test('progress that does not increase is not sent, but still extends the timeout (D267)', async (t) => {
  // 50, then a step back and a repeat, then 150 (the SDK caps it at 100); then 2.1 s of
  // repeats against a 1 s timeout.
  const body = [
    'source "${MCP_SDK}/tool-sdk.sh"',
    'mcp_progress 50 a; mcp_progress 10 b; mcp_progress 10 c; mcp_progress 150 d',
    'for i in 1 2 3 4 5 6 7; do sleep 0.3; mcp_progress 100 again; done',
    "printf 'ran'",
  ].join('\n');
  const root = projectWithTools(t, 'backwards', {
    backwards: { body, meta: { timeoutSecs: 1, progressExtendsTimeout: true, maxTimeoutSecs: 20 } },
  });
  const server = await startInProcess({ projectRoot: root, env: toolEnv() });
  t.teardown(() => server.close());
  const response = await server.request(
    'tools/call',
    { name: 'backwards', _meta: { progressToken: 'b' } },
    undefined,
    20_000,
  );
  t.match(response.result, { content: [{ text: 'ran' }], isError: false }, 'repeats were activity: no timeout');
  t.same(
    server.notifications('notifications/progress').map((m) => (m.params as { progress: number }).progress),
    [50, 100],
    'each notification sent has a greater progress than the one before',
  );
});

t.test('side-channel lines that are not JSON: one warning on stderr per call', async (t) => {
  const server = await startInProcess({ projectRoot: fixtureProject('tools'), env: toolEnv() });
  await server.request('tools/call', { name: 'bad-lines', _meta: { progressToken: 'b' } });
  await server.request('tools/call', { name: 'bad-lines', _meta: { progressToken: 'b' } });
  const warnings = server.stderr.split('\n').filter((line) => line.includes('bad-lines') && line.includes('not JSON'));
  t.equal(warnings.length, 2, `once per call:\n${warnings.join('\n')}`);
  t.match(warnings[0], /warning/i);
  t.match(warnings[0], /progress garbage 1/, 'it quotes the first bad line');
  await server.close();
});

t.test('with live progress off, an elicitation is still answered while the tool waits', async (t) => {
  const server = await startInProcess({
    projectRoot: fixtureProject('tools'),
    env: toolEnv({ MCPBASH_ENABLE_LIVE_PROGRESS: 'false' }),
    capabilities: { elicitation: { form: {} } },
  });
  t.teardown(() => server.close());
  const call = server.request('tools/call', { name: 'elicit' }, undefined, 40_000);
  const asked = await server.waitFor((m) => m.method === 'elicitation/create', 5000);
  server.send({ jsonrpc: '2.0', id: asked.id, result: { action: 'accept', content: { confirmed: true } } });
  const result = (await call).result as { content: Array<{ text: string }> };
  t.same(JSON.parse(result.content[0]?.text ?? '{}'), {
    supported: true,
    answer: { action: 'accept', content: { confirmed: true } },
  });
});
