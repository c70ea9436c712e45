import { CreateMessageRequestSchema, McpError } from '@modelcontextprotocol/sdk/types.js';
import t, { type Test } from 'tap';
import { toolEnv } from '../../helpers/run-binary.js';
import { connectSdkClient, sdkEnv } from '../../helpers/sdk-client.js';
import { sdkToolsProject } from '../../helpers/sdk-tools-project.js';

// A Bash tool asks the client's model through the SDK (mcp_sample, mcp_sample_messages); the
// official client answers sampling/createMessage, checking the request against MCP's schema.
const tools: Record<string, string> = {
  summarise: `mcp_sample "Summarise: $(mcp_args_get '.text')" --system 'Be brief.' --max-tokens 50 \\
  --model-hint claude --temperature .5 || { rc=$?; printf 'failed %s' "$rc"; exit 0; }`,
  converse: [
    `turn() { printf '{"role":"%s","content":{"type":"text","text":"%s"}}' "$1" "$2"; }`,
    `messages="[$(turn user Hi),$(turn assistant Hello),$(turn user Again)]"`,
    `if answer="$(mcp_sample_messages "$messages" --max-tokens 20)"; then printf '%s' "$answer"`,
    `else printf 'failed %s' "$answer"; fi`,
  ].join('\n'),
  // The messages as given (a JSON string), past the SDK's own checks.
  given: `if answer="$(mcp_sample_messages "$(mcp_args_get '.messages')")"; then printf '%s' "$answer"
else printf 'failed %s' "$answer"; fi`,
};

const project = () => sdkToolsProject('mcpbash-sample-sdk-', tools);

const text = (result: { content: unknown }) => (result.content as Array<{ text: string }>)[0]?.text;

type Params = { messages: Array<{ content: unknown }> };

/** The official client, able to sample, on a fresh project; `asked` has every request's params. */
async function samplingClient(t: Test, answer: (params: Params) => unknown) {
  const { client } = await connectSdkClient({
    env: sdkEnv(toolEnv({ MCPBASH_PROJECT_ROOT: project() })),
    capabilities: { capabilities: { sampling: {} } },
  });
  t.teardown(() => client.close());
  const asked: unknown[] = [];
  client.setRequestHandler(CreateMessageRequestSchema, async (request) => {
    asked.push(request.params);
    return answer(request.params as Params) as {
      role: 'assistant';
      content: { type: 'text'; text: string };
      model: string;
    };
  });
  return { client, asked };
}

t.test("mcp_sample asks the client's model and the tool gets its text", async (t) => {
  const { client, asked } = await samplingClient(t, (params) => {
    const last = params.messages.at(-1)?.content as { text: string };
    return { role: 'assistant', content: { type: 'text', text: `model says: ${last.text}` }, model: 'm-1' };
  });
  const summary = await client.callTool({ name: 'summarise', arguments: { text: 'a "long" story' } });
  t.equal(text(summary as { content: unknown }), 'model says: Summarise: a "long" story');
  t.same(asked[0], {
    messages: [{ role: 'user', content: { type: 'text', text: 'Summarise: a "long" story' } }],
    systemPrompt: 'Be brief.',
    maxTokens: 50,
    temperature: 0.5,
    modelPreferences: { hints: [{ name: 'claude' }] },
  });
  const conversation = await client.callTool({ name: 'converse' });
  t.same(JSON.parse(text(conversation as { content: unknown }) as string), {
    action: 'accept',
    content: { role: 'assistant', content: { type: 'text', text: 'model says: Again' }, model: 'm-1' },
  });
  t.equal((asked[1] as { messages: unknown[] }).messages.length, 3, 'the whole conversation was sent');
});

t.test('a client that refuses, and a client without sampling: the tool hears so at once', async (t) => {
  const refusing = await samplingClient(t, () => {
    throw new McpError(-1, 'User rejected sampling request');
  });
  const refused = await refusing.client.callTool({ name: 'converse' });
  const answer = JSON.parse((text(refused as { content: unknown }) as string).replace(/^failed /, ''));
  t.match(answer, { action: 'decline', content: { code: -1, message: /User rejected sampling request/ } });
  const summary = await refusing.client.callTool({ name: 'summarise', arguments: { text: 'x' } });
  t.equal(text(summary as { content: unknown }), 'failed 1');

  const without = await connectSdkClient({ env: sdkEnv(toolEnv({ MCPBASH_PROJECT_ROOT: project() })) });
  t.teardown(() => without.client.close());
  const started = Date.now();
  const none = await without.client.callTool({ name: 'converse' });
  t.equal(text(none as { content: unknown }), 'failed {"action":"decline","content":null}');
  t.ok(Date.now() - started < 10_000, 'no wait for an answer that cannot come');
});

t.test(
  'a request without messages, or with one that is not an object: error, and the client is not asked',
  async (t) => {
    const { client, asked } = await samplingClient(t, () => ({
      role: 'assistant',
      content: { type: 'text', text: 'answered' },
      model: 'm-1',
    }));
    for (const messages of ['[]', '["Hi"]']) {
      const started = Date.now();
      const result = await client.callTool({ name: 'given', arguments: { messages } });
      t.equal(text(result as { content: unknown }), 'failed {"action":"error","content":null}', messages);
      t.ok(Date.now() - started < 10_000, 'at once');
    }
    t.same(asked, [], 'no sampling/createMessage was sent');
  },
);
