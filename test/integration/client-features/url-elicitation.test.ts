import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import {
  ElicitationCompleteNotificationSchema,
  ElicitRequestSchema,
  UrlElicitationRequiredError,
} from '@modelcontextprotocol/sdk/types.js';
import t from 'tap';
import { startInitialized } from '../../helpers/mcp-process.js';
import { toolEnv } from '../../helpers/run-binary.js';
import { connectSdkClient, sdkEnv } from '../../helpers/sdk-client.js';
import { sdkToolsProject } from '../../helpers/sdk-tools-project.js';

// URL elicitation from a Bash tool through the binary (D296): mcp_elicit_url sends the URL
// with the tool's id, mcp_elicit_complete tells the client the step is done
// (notifications/elicitation/complete); a 2025-11-25 client that cannot show URLs gets the
// call failed with -32042 naming the URL, and the tool goes no further.
const URL = 'https://example.com/connect?state=conn-42';
const connect = `printf '%s' "\${MCP_ELICIT_URL-}" >"\${MCPBASH_PROJECT_ROOT}/url-mode"
rc=0
answer="$(mcp_elicit_url 'Sign in to Example' '${URL}' 10 conn-42)" || rc=$?
touch "\${MCPBASH_PROJECT_ROOT}/went-on"
completed=0
mcp_elicit_complete conn-42 || completed=$?
again=0
mcp_elicit_complete conn-42 2>/dev/null || again=$?
printf '{"rc":%s,"answer":%s,"completed":%s,"again":%s}' "$rc" "$answer" "$completed" "$again"
`;

// Asks with the id it is given (any string); prints the answer and whether the id in it completes.
const given = `rc=0
answer="$(mcp_elicit_url 'Sign in to Example' '${URL}' 10 "$(mcp_args_get '.id')")" || rc=$?
id="\${answer##*\\"elicitationId\\":\\"}"
completed=0
mcp_elicit_complete "\${id%%\\"*}" || completed=$?
printf '{"rc":%s,"answer":%s,"completed":%s}' "$rc" "$answer" "$completed"
`;

const project = () => sdkToolsProject('mcpbash-url-elicit-', { connect, given });

const output = (result: unknown) =>
  JSON.parse((result as { content: Array<{ text: string }> }).content[0]?.text ?? '{}') as Record<string, unknown>;

t.test('a client that shows URLs: elicitation/create with the tool id, then the completion notice', async (t) => {
  const root = project();
  const { client } = await connectSdkClient({
    env: sdkEnv(toolEnv({ MCPBASH_PROJECT_ROOT: root })),
    capabilities: { capabilities: { elicitation: { url: {} } } },
  });
  t.teardown(() => client.close());
  const asked: unknown[] = [];
  client.setRequestHandler(ElicitRequestSchema, async (request) => {
    asked.push(request.params);
    return { action: 'accept' };
  });
  const completed: unknown[] = [];
  client.setNotificationHandler(ElicitationCompleteNotificationSchema, async (notification) => {
    completed.push(notification.params);
  });
  const result = await client.callTool({ name: 'connect' });
  t.same(asked, [{ mode: 'url', message: 'Sign in to Example', url: URL, elicitationId: 'conn-42' }]);
  t.same(output(result), {
    rc: 0,
    answer: { action: 'accept', content: {}, elicitationId: 'conn-42' },
    completed: 0,
    again: 1,
  });
  t.same(completed, [{ elicitationId: 'conn-42' }], 'one notice; the id is closed after it');
  t.equal(readFileSync(join(root, 'url-mode'), 'utf8'), '1', 'MCP_ELICIT_URL');
});

t.test('an elicitation id that is not 1-128 printable characters: the server sends a fresh UUID', async (t) => {
  const { client } = await connectSdkClient({
    env: sdkEnv(toolEnv({ MCPBASH_PROJECT_ROOT: project() })),
    capabilities: { capabilities: { elicitation: { url: {} } } },
  });
  t.teardown(() => client.close());
  const asked: Array<{ elicitationId?: string }> = [];
  client.setRequestHandler(ElicitRequestSchema, async (request) => {
    asked.push(request.params as { elicitationId?: string });
    return { action: 'accept' };
  });
  const uuid = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;
  for (const [index, invalid] of ['two words', 'x'.repeat(129), 'caf\u00e9', 'tab\there'].entries()) {
    const result = await client.callTool({ name: 'given', arguments: { id: invalid } });
    const sent = asked[index]?.elicitationId;
    t.match(sent, uuid, `${JSON.stringify(invalid)}: the client gets a UUID`);
    t.not(sent, invalid);
    t.same(
      output(result),
      { rc: 0, answer: { action: 'accept', content: {}, elicitationId: sent }, completed: 0 },
      'the tool reads that UUID back, and it completes',
    );
  }
  t.equal(new Set(asked.map((params) => params.elicitationId)).size, asked.length, 'a fresh one each time');
  const longest = '~'.repeat(128);
  await client.callTool({ name: 'given', arguments: { id: longest } });
  t.equal(asked.at(-1)?.elicitationId, longest, '128 printable characters are kept');
});

t.test('a 2025-11-25 client that cannot show URLs: -32042 naming the URL, the tool stopped', async (t) => {
  for (const capabilities of [{ elicitation: { form: {} } }, {}]) {
    const root = project();
    const { client } = await connectSdkClient({
      env: sdkEnv(toolEnv({ MCPBASH_PROJECT_ROOT: root })),
      capabilities: { capabilities },
    });
    t.teardown(() => client.close());
    const error = await client.callTool({ name: 'connect' }).then(
      () => undefined,
      (caught: unknown) => caught,
    );
    t.ok(error instanceof UrlElicitationRequiredError, `the SDK client reads -32042 (${JSON.stringify(capabilities)})`);
    t.same((error as UrlElicitationRequiredError).elicitations, [
      { mode: 'url', message: 'Sign in to Example', url: URL, elicitationId: 'conn-42' },
    ]);
    t.notOk(existsSync(join(root, 'went-on')), 'the tool did not go on past the URL it needed');
    t.equal(readFileSync(join(root, 'url-mode'), 'utf8'), 'error', 'MCP_ELICIT_URL');
  }
});

t.test('before 2025-11-25 a client without URL elicitation declines, as before', async (t) => {
  const root = project();
  const server = await startInitialized({
    projectRoot: root,
    env: toolEnv(),
    protocolVersion: '2025-06-18',
    capabilities: { elicitation: {} },
  });
  t.teardown(() => server.close());
  const { result } = await server.request('tools/call', { name: 'connect' });
  t.match(output(result), { answer: { action: 'decline', content: null }, completed: 1, again: 1 });
  t.ok(existsSync(join(root, 'went-on')));
  t.equal(readFileSync(join(root, 'url-mode'), 'utf8'), '0', 'MCP_ELICIT_URL');
  t.notOk(server.messages.some((message) => message.method === 'elicitation/create'));
});
