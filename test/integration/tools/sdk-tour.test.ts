/**
 * The sdk-tour fixture through the real server: the same tool test/sdk/tour.test.ts runs
 * directly, here called with tools/call, so every SDK function meets the environment, the
 * per-call files and the notifications the server really provides.
 */
import { realpathSync } from 'node:fs';
import { pathToFileURL } from 'node:url';
import t from 'tap';
import { copyProject } from '../../helpers/fixtures.js';
import { type Message, startInitialized } from '../../helpers/mcp-process.js';
import { toolEnv } from '../../helpers/run-binary.js';
import { scratchDir } from '../../helpers/scratch.js';
import { expectedTourSummary, tourProject } from '../../helpers/sdk-tour.js';

const tour = () => copyProject(tourProject, 'sdk-tour');
type Summary = Record<string, string>;
const summaryOf = (response: Message) =>
  (response.result as { structuredContent: { result: Summary } }).structuredContent.result;

t.test('the SDK tour through tools/call: roots, _meta, progress, logs and results', async (t) => {
  const root = realpathSync(scratchDir('tour-root-'));
  const server = await startInitialized({ projectRoot: tour(), env: toolEnv(), capabilities: { roots: {} } });
  t.teardown(() => server.close());
  const ask = await server.waitFor((m) => m.method === 'roots/list');
  server.send({ jsonrpc: '2.0', id: ask.id, result: { roots: [{ uri: pathToFileURL(root).href, name: 'tour' }] } });
  t.same((await server.request('logging/setLevel', { level: 'debug' })).result, {});
  const response = await server.request(
    'tools/call',
    {
      name: 'sdk-tour',
      arguments: { name: 'Ada', count: 4, path: root },
      _meta: { progressToken: 'tour', trace: 'abc' },
    },
    undefined,
    60_000,
  );
  t.match(response.result, { isError: false, structuredContent: { success: true } }, 'the tour succeeded');
  const summary = summaryOf(response);
  t.match(summary, expectedTourSummary(root));
  t.same(JSON.parse(summary.raw ?? ''), { name: 'Ada', count: 4, path: root }, 'mcp_args_raw');
  t.same(JSON.parse(summary.truncate ?? ''), { result: [1, 2, 3], truncated: true, kept: 3, total: 9 });
  t.equal(JSON.parse(summary.download ?? '').error.type, 'host_blocked');
  t.match(JSON.parse(summary.resources ?? '[]'), [{ mimeType: 'text/plain' }]);
  t.equal(JSON.parse(summary.result_error ?? '').isError, true);
  const progress = server.notifications('notifications/progress').map((m) => m.params);
  t.same(
    progress.map((params) => [params?.progressToken, params?.progress]),
    [
      ['tour', 25],
      ['tour', 50],
      ['tour', 75],
      ['tour', 100],
    ],
    // The SDK writes the pass-through's 40 too (test/sdk/tour.test.ts), but after 100.
    "progress, with the request's token; the pass-through's 40 does not increase it, so it is not sent (D267)",
  );
  const logs = server
    .notifications('notifications/message')
    .map((m) => m.params)
    .filter((params) => params?.logger === 'sdk-tour');
  t.same(
    logs.map((params) => [params?.level, params?.data]),
    [
      ['info', { step: 'start' }],
      ['debug', 'debug line'],
      ['info', 'processing Ada'],
      ['warning', 'warning line'],
      ['error', 'error line'],
    ],
    'the five log calls, at the level the client set',
  );
});

t.test("the tour's failure modes through tools/call", async (t) => {
  const server = await startInitialized({ projectRoot: tour(), env: toolEnv() });
  t.teardown(() => server.close());
  const call = (args: Record<string, unknown>) => server.request('tools/call', { name: 'sdk-tour', arguments: args });
  t.match((await call({ mode: 'fail' })).error, {
    code: -32010,
    message: 'Tour failure on request',
    data: { mode: 'fail' },
  });
  t.match((await call({ mode: 'error' })).result, {
    isError: true,
    structuredContent: { error: { type: 'validation_error', hint: 'Call with mode=summary' } },
  });
  t.match((await call({})).error, { code: -32602, message: 'name is required' });
});

t.test("the tour's elicitation mode through tools/call", async (t) => {
  const server = await startInitialized({
    projectRoot: tour(),
    env: toolEnv(),
    capabilities: { elicitation: { form: {}, url: {} } },
  });
  t.teardown(() => server.close());
  const response = server.request('tools/call', { name: 'sdk-tour', arguments: { mode: 'elicit', name: 'x' } });
  // The tour asks eight times; the client accepts each.
  for (let asked = 1; asked <= 8; asked += 1) {
    const request = await server.waitFor(
      () => server.messages.filter((m) => m.method === 'elicitation/create').length >= asked,
      20_000,
      `elicitation #${asked}`,
    );
    void request;
    const message = server.messages.filter((m) => m.method === 'elicitation/create')[asked - 1] as Message;
    const mode = (message.params as { mode?: string }).mode;
    server.send({
      jsonrpc: '2.0',
      id: message.id,
      result: mode === 'url' ? { action: 'accept' } : { action: 'accept', content: { confirmed: true } },
    });
  }
  const summary = summaryOf(await response);
  t.same(JSON.parse(summary.elicit ?? ''), { action: 'accept', content: { confirmed: true } });
});
