import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import t from 'tap';
import { InProcessServer } from '../../helpers/in-process-server.js';
import type { Message } from '../../helpers/mcp-session.js';
import { isolatedEnv, runBinary, toolEnv } from '../../helpers/run-binary.js';
import { scratchDir } from '../../helpers/scratch.js';

/** A project with one tool and one prompt. */
function toolAndPrompt(): string {
  const project = scratchDir('first-list-');
  mkdirSync(join(project, 'tools', 'hello'), { recursive: true });
  writeFileSync(join(project, 'tools', 'hello', 'tool.sh'), '#!/usr/bin/env bash\nprintf hi\n', { mode: 0o755 });
  writeFileSync(join(project, 'tools', 'hello', 'tool.meta.json'), '{"name":"hello","description":"Says hi"}');
  mkdirSync(join(project, 'prompts'));
  writeFileSync(join(project, 'prompts', 'greet.txt'), 'Hello {{name}}');
  writeFileSync(join(project, 'prompts', 'greet.meta.json'), '{"name":"greet","description":"A greeting"}');
  return project;
}

/** The index of the registry's debug line "<kind>: N items, ..." among the messages, or -1. */
const registryLogIndex = (messages: Message[], kind: string) =>
  messages.findIndex((message) => {
    const params = message.params as { logger?: string; data?: unknown } | undefined;
    return (
      message.method === 'notifications/message' &&
      params?.logger === 'mcp.registry' &&
      String(params.data).startsWith(`${kind}: `)
    );
  });

t.test('a tools/list sent with notifications/initialized waits for the tools scan only', async (t) => {
  const server = new InProcessServer({
    projectRoot: toolAndPrompt(),
    env: isolatedEnv({ MCPBASH_LOG_LEVEL: 'debug' }),
  });
  t.teardown(() => server.close());
  await server.request('initialize', {
    protocolVersion: '2025-11-25',
    capabilities: {},
    clientInfo: { name: 'first-list', version: '1' },
  });
  // Both lines in one write, as a client sends them: the server reads them in one turn.
  server.writeRaw(
    '{"jsonrpc":"2.0","method":"notifications/initialized"}\n{"jsonrpc":"2.0","id":"list","method":"tools/list"}',
  );
  const listed = await server.waitFor((message) => message.id === 'list', 15_000, 'the tools/list response');
  t.same(
    (listed.result as { tools: Array<{ name: string }> }).tools.map((tool) => tool.name),
    ['hello'],
    'the tool is listed',
  );
  // The scan of the other kinds follows; its log line says when it finished.
  await server.waitFor((message) => registryLogIndex([message], 'prompts') === 0, 15_000, 'the prompts scan');
  const listIndex = server.messages.indexOf(listed);
  t.ok(registryLogIndex(server.messages, 'tools') < listIndex, 'the tools were scanned before the answer');
  t.ok(listIndex < registryLogIndex(server.messages, 'prompts'), 'the prompts were scanned after it');
});

t.test('a client that sends initialized without waiting reads the initialize answer first', async (t) => {
  const server = new InProcessServer({
    projectRoot: toolAndPrompt(),
    env: isolatedEnv({ MCPBASH_LOG_LEVEL: 'debug' }),
  });
  t.teardown(() => server.close());
  // What `printf '...' | mcp-bash` sends: the whole handshake and a request in one write.
  server.writeRaw(
    [
      '{"jsonrpc":"2.0","id":"init","method":"initialize","params":{"protocolVersion":"2025-11-25",' +
        '"capabilities":{},"clientInfo":{"name":"pipe","version":"1"}}}',
      '{"jsonrpc":"2.0","method":"notifications/initialized"}',
      '{"jsonrpc":"2.0","id":"list","method":"tools/list"}',
    ].join('\n'),
  );
  await server.waitFor((message) => message.id === 'list', 15_000, 'the tools/list response');
  await server.waitFor((message) => registryLogIndex([message], 'tools') === 0, 15_000, 'the tools scan log');
  t.equal(server.messages[0]?.id, 'init', 'the first line out is the initialize answer');
  t.ok(registryLogIndex(server.messages, 'tools') > 0, 'the scan logged after it');
});

t.test('a whole session piped in at once, roots declared, input closed: the call is answered', async (t) => {
  const lines = [
    {
      jsonrpc: '2.0',
      id: 1,
      method: 'initialize',
      params: {
        protocolVersion: '2025-06-18',
        capabilities: { roots: {} },
        clientInfo: { name: 'pipe', version: '1' },
      },
    },
    { jsonrpc: '2.0', method: 'notifications/initialized' },
    { jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'hello', arguments: {} } },
  ];
  const started = Date.now();
  // Input then end of input, as `printf ... | mcp-bash` delivers them: the client cannot
  // answer roots/list any more, so the call runs with the fallback roots.
  const run = await runBinary([], {
    env: toolEnv({ MCPBASH_PROJECT_ROOT: toolAndPrompt() }),
    input: lines.map((line) => `${JSON.stringify(line)}\n`).join(''),
  });
  const replies = run.stdout
    .split('\n')
    .filter(Boolean)
    .map((line) => JSON.parse(line) as { id?: number; result?: unknown });
  t.match(
    replies.find((reply) => reply.id === 2),
    { result: { content: [{ text: 'hi' }] } },
    run.stderr,
  );
  t.ok(Date.now() - started < 4000, 'without waiting out the roots timeout');
});
