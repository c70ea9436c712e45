import t from 'tap';
import { postHeaders, readUntil, sseMessages, startHttpServer } from '../../helpers/http-server.js';
import { toolEnv } from '../../helpers/run-binary.js';
import { sdkToolsProject } from '../../helpers/sdk-tools-project.js';

// What a tool sends the client during a call travels on the stream of the POST that carried
// the call (Streamable HTTP: messages related to a request go on its stream): the
// sampling/createMessage request of mcp_sample, and the notifications/elicitation/complete
// of mcp_elicit_complete. This session never opens the GET stream, so nothing could arrive
// any other way.
const tools: Record<string, string> = {
  ask: `mcp_sample "Name a colour" --max-tokens 5`,
  connect: [
    `mcp_elicit_url 'Sign in' 'https://example.com/in?state=s-1' 10 s-1 >/dev/null`,
    'mcp_elicit_complete s-1 && echo completed',
  ].join('\n'),
};

t.test("over HTTP, requests and notices of a call ride the call's own stream", async (t) => {
  const server = await startHttpServer(t, {
    env: toolEnv({
      MCPBASH_PROJECT_ROOT: sdkToolsProject('mcpbash-http-client-requests-', tools),
      MCPBASH_TOOL_ALLOWLIST: '*',
    }),
  });
  const init = await fetch(server.url, {
    method: 'POST',
    headers: postHeaders(),
    body: JSON.stringify({
      jsonrpc: '2.0',
      id: 1,
      method: 'initialize',
      params: {
        protocolVersion: '2025-11-25',
        capabilities: { sampling: {}, elicitation: { url: {} } },
        clientInfo: { name: 'raw', version: '1' },
      },
    }),
  });
  await init.text();
  const session = init.headers.get('mcp-session-id') as string;
  const headers = postHeaders({ 'mcp-session-id': session, 'mcp-protocol-version': '2025-11-25' });
  const post = (message: object) => fetch(server.url, { method: 'POST', headers, body: JSON.stringify(message) });
  await (await post({ jsonrpc: '2.0', method: 'notifications/initialized' })).text();

  t.test('sampling/createMessage, answered by a separate POST', async (t) => {
    const call = await post({ jsonrpc: '2.0', id: 7, method: 'tools/call', params: { name: 'ask' } });
    t.match(call.headers.get('content-type'), /^text\/event-stream/);
    const reader = (call.body as ReadableStream<Uint8Array>).getReader();
    let text = await readUntil(reader, (sofar) =>
      sseMessages(sofar).some((m) => m.method === 'sampling/createMessage'),
    );
    const asked = sseMessages(text).find((m) => m.method === 'sampling/createMessage') as Record<string, unknown>;
    t.match(asked.params, {
      messages: [{ role: 'user', content: { type: 'text', text: 'Name a colour' } }],
      maxTokens: 5,
    });
    const answer = await post({
      jsonrpc: '2.0',
      id: asked.id,
      result: { role: 'assistant', content: { type: 'text', text: 'teal' }, model: 'm' },
    });
    t.equal(answer.status, 202, 'the answer is accepted');
    text = await readUntil(reader, (sofar) => sseMessages(sofar).some((m) => m.id === 7), text);
    t.match(
      sseMessages(text).find((m) => m.id === 7),
      { result: { content: [{ type: 'text', text: 'teal' }] } },
    );
  });

  t.test('elicitation/create and notifications/elicitation/complete', async (t) => {
    const call = await post({ jsonrpc: '2.0', id: 8, method: 'tools/call', params: { name: 'connect' } });
    const reader = (call.body as ReadableStream<Uint8Array>).getReader();
    let text = await readUntil(reader, (sofar) => sseMessages(sofar).some((m) => m.method === 'elicitation/create'));
    const asked = sseMessages(text).find((m) => m.method === 'elicitation/create') as Record<string, unknown>;
    t.match(asked.params, { mode: 'url', elicitationId: 's-1' });
    await (await post({ jsonrpc: '2.0', id: asked.id, result: { action: 'accept' } })).text();
    text = await readUntil(reader, (sofar) => sseMessages(sofar).some((m) => m.id === 8), text);
    const messages = sseMessages(text);
    const complete = messages.findIndex((m) => m.method === 'notifications/elicitation/complete');
    t.same(messages[complete]?.params, { elicitationId: 's-1' });
    t.ok(complete < messages.findIndex((m) => m.id === 8), "before the call's answer, on its stream");
    t.match(
      messages.find((m) => m.id === 8),
      { result: { content: [{ text: /completed/ }] } },
    );
  });
});
