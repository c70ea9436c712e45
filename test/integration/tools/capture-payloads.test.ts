import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import t from 'tap';
import { fixtureProject } from '../../helpers/fixtures.js';
import { startInitialized } from '../../helpers/mcp-process.js';
import { eventually, isAlive } from '../../helpers/processes.js';
import { toolEnv } from '../../helpers/run-binary.js';
import { scratchDir } from '../../helpers/scratch.js';

type Result = {
  content: Array<Record<string, unknown>>;
  structuredContent?: Record<string, unknown>;
  isError?: boolean;
  _meta?: Record<string, unknown>;
};

t.test('MCPBASH_TOOL_STREAM_STDERR=true: tool stderr reaches the server stderr while the tool runs', async (t) => {
  const server = await startInitialized({
    projectRoot: fixtureProject('tools'),
    env: toolEnv({ MCPBASH_TOOL_STREAM_STDERR: 'true' }),
  });
  const response = server.request('tools/call', { name: 'stderr-stream' });
  t.ok(
    await eventually(() => server.stderr.includes('streamed to the server stderr'), 1200),
    'on stderr within moments',
  );
  t.notOk(
    server.messages.some((m) => m.id !== undefined && m.result !== undefined && (m.result as Result).content),
    'before the result',
  );
  t.match(
    (await response).result,
    { content: [{ text: 'done' }], _meta: { stderr: 'streamed to the server stderr\n' } },
    'and still in _meta.stderr',
  );
  await server.close();
});

t.test('without MCPBASH_TOOL_STREAM_STDERR, tool stderr stays out of the server stderr', async (t) => {
  const server = await startInitialized({ projectRoot: fixtureProject('tools'), env: toolEnv() });
  await server.request('tools/call', { name: 'stderr-stream' });
  t.notMatch(server.stderr, /streamed to the server stderr/);
  await server.close();
});

t.test('MCPBASH_TOOL_STDERR_CAPTURE=false: no _meta.stderr', async (t) => {
  const server = await startInitialized({
    projectRoot: fixtureProject('tools'),
    env: toolEnv({ MCPBASH_TOOL_STDERR_CAPTURE: 'false' }),
  });
  const result = (await server.request('tools/call', { name: 'exit-nonzero' })).result as Result;
  t.same(result._meta, { exitCode: 3 });
  t.equal(
    result.content[0]?.text,
    "Tool 'exit-nonzero' failed with exit status 3: first problem line",
    'the message still names the problem',
  );
  await server.close();
});

t.test('MCPBASH_TOOL_STDERR_TAIL_LIMIT: only the last N bytes of stderr', async (t) => {
  const server = await startInitialized({
    projectRoot: fixtureProject('tools'),
    env: toolEnv({ MCPBASH_TOOL_STDERR_TAIL_LIMIT: '12' }),
  });
  const result = (await server.request('tools/call', { name: 'exit-nonzero' })).result as Result;
  t.same(result._meta, { exitCode: 3, stderr: 'second line\n' });
  await server.close();
});

t.test(
  '_meta and the registry entry spill to MCP_TOOL_META_FILE / MCP_TOOL_METADATA_FILE above the threshold',
  async (t) => {
    const server = await startInitialized({
      projectRoot: fixtureProject('tools'),
      env: toolEnv({ MCPBASH_ENV_PAYLOAD_THRESHOLD: '100' }),
    });
    const pad = 'x'.repeat(200);
    const big = (await server.request('tools/call', { name: 'payload-files', _meta: { pad } })).result as Result;
    t.match(big.structuredContent, {
      metaVia: 'file',
      metadataVia: 'file',
      meta: { pad },
      metadata: { name: 'payload-files', path: 'payload-files/tool.sh' },
    });
    const small = (await server.request('tools/call', { name: 'payload-files', _meta: { p: 1 } })).result as Result;
    t.match(small.structuredContent, { metaVia: 'env', meta: { p: 1 } }, 'small payloads stay in the environment');
    await server.close();
  },
);

t.test('a tool that ignores SIGTERM is KILLed at its timeout (137) and leaves no process', async (t) => {
  const server = await startInitialized({
    projectRoot: fixtureProject('tools'),
    env: toolEnv({ MCPBASH_KILL_GRACE_SECS: '0.5' }),
  });
  const marker = join(scratchDir('mcpbash-term-'), 'pids');
  const result = (
    await server.request('tools/call', { name: 'ignores-term', arguments: { marker } }, undefined, 20_000)
  ).result as Result;
  t.match(result, {
    isError: true,
    structuredContent: { error: { type: 'timeout', reason: 'fixed', exitCode: 137 } },
    _meta: { exitCode: 137 },
  });
  t.ok(existsSync(marker));
  const pids = readFileSync(marker, 'utf8').trim().split(' ').map(Number);
  t.equal(pids.length, 2);
  for (const pid of pids) t.ok(await eventually(() => !isAlive(pid), 3000), `process ${pid} is gone`);
  await server.close();
});

t.test('MCPBASH_MAX_RESOURCE_BYTES caps embedded resources, not the tool output size', async (t) => {
  const server = await startInitialized({
    projectRoot: fixtureProject('tools'),
    env: toolEnv({ MCPBASH_MAX_RESOURCE_BYTES: '20' }),
  });
  const result = (await server.request('tools/call', { name: 'embed' })).result as Result;
  const attached = result.content.filter((item) => item.type === 'resource') as unknown as Array<{
    resource: { uri: string };
  }>;
  t.same(
    attached.map((item) => item.resource.uri.replace(/^.*\//, '')),
    ['image.png'],
    'the 16-byte image fits, the 23-byte note does not',
  );
  t.match(result.content[1], { type: 'text', text: /note\.txt was left out: larger than 20 bytes/ });
  const twice = (await server.request('tools/call', { name: 'embed', arguments: { format: 'twice' } }))
    .result as Result;
  t.match(
    twice.content.slice(1),
    [
      { type: 'resource', resource: { mimeType: 'image/png' } },
      { type: 'text', text: /image\.png was left out: the call's attachments would pass 20 bytes in all/ },
    ],
    "the cap holds for all of a call's attachments together",
  );
  t.match(server.stderr, /embedded resource .*note\.txt skipped: larger than 20 bytes \(MCPBASH_MAX_RESOURCE_BYTES\)/);
  await server.close();
});
