import { ElicitRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import t from 'tap';
import { fixtureProject } from '../../helpers/fixtures.js';
import { startInProcess } from '../../helpers/in-process-server.js';
import type { Message } from '../../helpers/mcp-session.js';
import { toolEnv } from '../../helpers/run-binary.js';
import { connectSdkClient, sdkEnv } from '../../helpers/sdk-client.js';

const output = (response: Message) =>
  JSON.parse((response.result as { content: Array<{ text: string }> }).content[0]?.text ?? '{}');

t.test('without the elicitation capability tools see MCP_ELICIT_SUPPORTED=0', async (t) => {
  const server = await startInProcess({ projectRoot: fixtureProject('tools'), env: toolEnv() });
  t.same(output(await server.request('tools/call', { name: 'elicit' })), { supported: false });
  await server.close();
});

t.test('a form request becomes elicitation/create and the answer goes back to the tool', async (t) => {
  const server = await startInProcess({
    projectRoot: fixtureProject('tools'),
    env: toolEnv(),
    capabilities: { elicitation: { form: {} } },
  });
  const call = server.request('tools/call', { name: 'elicit' });
  const asked = await server.waitFor((m) => m.method === 'elicitation/create');
  t.same(asked.params, {
    mode: 'form',
    message: 'Proceed?',
    requestedSchema: { type: 'object', properties: { confirmed: { type: 'boolean' } }, required: ['confirmed'] },
  });
  server.send({ jsonrpc: '2.0', id: asked.id, result: { action: 'accept', content: { confirmed: true } } });
  t.same(output(await call), { supported: true, answer: { action: 'accept', content: { confirmed: true } } });
  await server.close();
});

t.test('decline, cancel and client errors are normalised', async (t) => {
  const server = await startInProcess({
    projectRoot: fixtureProject('tools'),
    env: toolEnv(),
    capabilities: { elicitation: {} },
  });
  const answers: Array<[Record<string, unknown>, unknown]> = [
    [{ result: { action: 'decline' } }, { action: 'decline', content: null }],
    [{ result: { action: 'cancel' } }, { action: 'cancel', content: null }],
    [{ error: { code: -1, message: 'dialog crashed' } }, { action: 'error', content: null }],
  ];
  for (const [index, [reply, expected]] of answers.entries()) {
    const call = server.request('tools/call', { name: 'elicit' });
    await server.waitFor(() => server.messages.filter((m) => m.method === 'elicitation/create').length > index);
    const asked = server.messages.filter((m) => m.method === 'elicitation/create')[index] as Message;
    server.send({ jsonrpc: '2.0', id: asked.id, ...reply });
    t.same(output(await call).answer, expected);
  }
  await server.close();
});

t.test(
  'a client that never answers: the server gives up after MCPBASH_ELICITATION_TIMEOUT + 5 s and the tool gets error',
  async (t) => {
    const server = await startInProcess({
      projectRoot: fixtureProject('tools'),
      env: toolEnv({ MCPBASH_ELICITATION_TIMEOUT: '1' }),
      capabilities: { elicitation: {} },
    });
    t.teardown(() => server.close());
    const started = Date.now();
    const call = server.request('tools/call', { name: 'elicit' }, undefined, 20_000);
    const asked = await server.waitFor((m) => m.method === 'elicitation/create');
    const result = output(await call);
    const elapsed = Date.now() - started;
    t.same(result, { supported: true, answer: { action: 'error', content: null } }, "not the tool's own 30 s timeout");
    t.ok(elapsed >= 5500 && elapsed < 15_000, `answered by the server's timeout (${elapsed} ms)`);
    server.send({ jsonrpc: '2.0', id: asked.id, result: { action: 'accept', content: { confirmed: true } } });
    t.same((await server.request('ping')).result, {}, 'a late answer is ignored (D26)');
  },
);

t.test(
  'a legacy {} capability means form only: before 2025-11-25 a url request is declined without asking',
  async (t) => {
    const server = await startInProcess({
      projectRoot: fixtureProject('tools'),
      env: toolEnv(),
      capabilities: { elicitation: {} },
      protocolVersion: '2025-06-18',
    });
    t.same(output(await server.request('tools/call', { name: 'elicit', arguments: { mode: 'url' } })).answer, {
      action: 'decline',
      content: null,
    });
    t.notOk(server.messages.some((m) => m.method === 'elicitation/create'));
    await server.close();
  },
);

t.test('url mode carries an elicitationId when the client supports it', async (t) => {
  const server = await startInProcess({
    projectRoot: fixtureProject('tools'),
    env: toolEnv(),
    capabilities: { elicitation: { url: {} } },
  });
  const call = server.request('tools/call', { name: 'elicit', arguments: { mode: 'url' } });
  const asked = await server.waitFor((m) => m.method === 'elicitation/create');
  t.match(asked.params, {
    mode: 'url',
    message: 'Open the page',
    url: 'https://example.com/auth',
    elicitationId: /^[0-9a-f-]{36}$/,
  });
  server.send({ jsonrpc: '2.0', id: asked.id, result: { action: 'accept' } });
  t.same(output(await call).answer, {
    action: 'accept',
    content: {},
    elicitationId: (asked.params as { elicitationId: string }).elicitationId,
  });
  await server.close();
});

t.test('the official SDK client answers elicitation/create through its request handler', async (t) => {
  const { client } = await connectSdkClient({
    env: sdkEnv(toolEnv({ MCPBASH_PROJECT_ROOT: fixtureProject('tools') })),
    capabilities: { capabilities: { elicitation: { form: {} } } },
  });
  const seen: unknown[] = [];
  client.setRequestHandler(ElicitRequestSchema, async (request) => {
    seen.push(request.params);
    return { action: 'accept', content: { confirmed: false } };
  });
  const result = await client.callTool({ name: 'elicit' });
  t.same(JSON.parse((result.content as Array<{ text: string }>)[0]?.text ?? '{}'), {
    supported: true,
    answer: { action: 'accept', content: { confirmed: false } },
  });
  t.match(seen[0], { message: 'Proceed?' });
  await client.close();
});
