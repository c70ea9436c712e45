/**
 * The session's lifecycle, through the server's entry point run in-process (the protocol
 * needs no child process); start-up failures and getting-started mode through the binary.
 */
import t from 'tap';
import { fixtureProject } from '../../helpers/fixtures.js';
import { InProcessServer, startInProcess } from '../../helpers/in-process-server.js';
import { McpProcess } from '../../helpers/mcp-process.js';
import { runBinary, toolEnv } from '../../helpers/run-binary.js';
import { scratchDir } from '../../helpers/scratch.js';

const project = fixtureProject('lifecycle');
const modern = {
  logging: {},
  tools: { listChanged: true },
  resources: { subscribe: true, listChanged: true },
  prompts: { listChanged: true },
  completions: {},
};
const legacy = { logging: {}, tools: {}, resources: { subscribe: true }, prompts: {} };

t.test('each supported version negotiates its own capabilities and instructions', async (t) => {
  const cases: Array<[string, object, boolean]> = [
    ['2025-11-25', modern, true],
    ['2025-06-18', modern, true],
    ['2025-03-26', legacy, true],
    ['2024-11-05', legacy, false],
  ];
  for (const [version, capabilities, hasInstructions] of cases) {
    const server = new InProcessServer({ projectRoot: project });
    const response = await server.request('initialize', {
      protocolVersion: version,
      capabilities: {},
      clientInfo: { name: 't', version: '1' },
    });
    const result = response.result as Record<string, unknown>;
    t.equal(result.protocolVersion, version, `${version}: echoed`);
    t.same(result.capabilities, capabilities, `${version}: capabilities`);
    t.equal(
      'instructions' in result,
      hasInstructions,
      `${version}: instructions ${hasInstructions ? 'present' : 'absent'}`,
    );
    await server.close();
  }
});

t.test('serverInfo and instructions come from server.d', async (t) => {
  const server = await startInProcess({ projectRoot: project });
  const result = await server.request('ping');
  t.same(result.result, {});
  const init = server.messages.find((m) => m.id === 1)?.result as Record<string, unknown>;
  t.same(init.serverInfo, {
    name: 'lifecycle-fixture',
    version: '1.2.3',
    title: 'Lifecycle Fixture',
    description: 'A project with no tools, for protocol tests',
    websiteUrl: 'https://example.com/lifecycle',
  });
  t.equal(init.instructions, 'Use the tools wisely.\n');
  await server.close();
});

t.test('no protocolVersion, or one we do not speak, is answered with the newest; a non-string is -32602', async (t) => {
  for (const asked of [
    {},
    { protocolVersion: '2026-07-28' },
    { protocolVersion: '1999-01-01' },
    { protocolVersion: '' },
  ]) {
    const server = new InProcessServer({ projectRoot: project });
    const init = await server.request('initialize', { ...asked, capabilities: {} });
    t.equal((init.result as { protocolVersion: string }).protocolVersion, '2025-11-25', JSON.stringify(asked));
    await server.close();
  }
  const older = new InProcessServer({ projectRoot: project });
  const init = await older.request('initialize', { protocolVersion: '2025-03-26', capabilities: {} });
  t.equal((init.result as { protocolVersion: string }).protocolVersion, '2025-03-26', 'one we speak is kept');
  await older.close();
  const server = new InProcessServer({ projectRoot: project });
  const bad = await server.request('initialize', { protocolVersion: 20251125, capabilities: {} });
  t.same(bad.error, {
    code: -32602,
    message: 'protocolVersion must be a string',
    data: {
      field: 'protocolVersion',
      requested: 20251125,
      supported: ['2025-11-25', '2025-06-18', '2025-03-26', '2024-11-05'],
    },
  });
  await server.close();
});

t.test('gating: -32000 before initialized, ping always answers, a second initialize is -32600', async (t) => {
  const server = new InProcessServer({ projectRoot: project });
  t.same((await server.request('ping')).result, {}, 'ping before initialize (D19)');
  t.match((await server.request('tools/list')).error, { code: -32000, message: 'Server not initialized' });
  await server.request('initialize', { protocolVersion: '2025-11-25', capabilities: {} });
  t.match(
    (await server.request('logging/setLevel', { level: 'debug' })).error,
    { code: -32000 },
    'still gated before initialized',
  );
  server.notify('notifications/initialized');
  t.same((await server.request('logging/setLevel', { level: 'debug' })).result, {});
  t.same((await server.request('initialize', { capabilities: {} })).error, {
    code: -32600,
    message: 'Server already initialized',
  });
  await server.close();
});

t.test('shutdown and exit: -32005 without shutdown, -32003 for new work after it, exit ends the process', async (t) => {
  const server = await startInProcess({ projectRoot: project });
  t.match((await server.request('exit')).error, { code: -32005, message: 'Shutdown not requested' });
  t.same((await server.request('shutdown')).result, {});
  t.match((await server.request('tools/list')).error, { code: -32003, message: 'Server shutting down' });
  t.same((await server.request('ping')).result, {}, 'ping still answers');
  t.same((await server.request('exit')).result, {});
  const ended = await server.exited;
  t.equal(ended.code, 0);
  t.same(server.protocolViolations, []);
});

t.test('piped requests answered without waiting keep their order (1.x answered these inline)', async (t) => {
  const lines = [
    { jsonrpc: '2.0', id: 0, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {} } },
    { jsonrpc: '2.0', method: 'notifications/initialized' },
    { jsonrpc: '2.0', id: 1, method: 'tools/call', params: {} },
    { jsonrpc: '2.0', id: 2, method: 'ping' },
    { jsonrpc: '2.0', id: 3, method: 'shutdown' },
    { jsonrpc: '2.0', id: 4, method: 'tools/list' },
  ];
  const run = await runBinary([], {
    env: toolEnv({ MCPBASH_PROJECT_ROOT: project }),
    input: `${lines.map((line) => JSON.stringify(line)).join('\n')}\n`,
  });
  const replies = run.stdout
    .trim()
    .split('\n')
    .map((line) => JSON.parse(line));
  t.same(
    replies.map((reply) => reply.id),
    [0, 1, 2, 3, 4],
    'initialize is answered before the params error that follows it, shutdown before the refusal after it',
  );
  t.match(replies[1], { error: { code: -32602 } });
  t.match(replies[4], { error: { code: -32003 } });
});

t.test('an exit notification before shutdown is ignored', async (t) => {
  const server = await startInProcess({ projectRoot: project });
  server.notify('exit');
  t.same((await server.request('ping')).result, {});
  await server.close();
});

t.test('logging/setLevel: any case accepted, a missing level means info, a bad one is -32602', async (t) => {
  const server = await startInProcess({ projectRoot: project });
  t.same((await server.request('logging/setLevel', { level: 'WARNING' })).result, {});
  t.same((await server.request('logging/setLevel', {})).result, {});
  t.match((await server.request('logging/setLevel', { level: 'verbose' })).error, {
    code: -32602,
    message: 'Invalid log level',
  });
  await server.close();
});

t.test('a client notifications/message gets no reply (D11); unknown methods -32601', async (t) => {
  const server = await startInProcess({ projectRoot: project });
  server.notify('notifications/message', { level: 'info', data: 'hi' });
  t.same((await server.request('tasks/list')).error, { code: -32601, message: 'Method not found', data: 'tasks/list' });
  t.equal(server.messages.filter((m) => m.id === undefined && m.error).length, 0, 'no id-less error replies');
  await server.close();
});

t.test('batches: refused on 2025-11-25, accepted under 2025-03-26 and with MCPBASH_COMPAT_BATCHES', async (t) => {
  const modernServer = await startInProcess({ projectRoot: project });
  modernServer.send([
    { jsonrpc: '2.0', id: 'b1', method: 'ping' },
    { jsonrpc: '2.0', method: 'notifications/progress' },
    { jsonrpc: '2.0', id: 'b2', method: 'ping' },
  ]);
  const refused = (await modernServer.waitFor((m) => Array.isArray(m))) as unknown as Array<Record<string, unknown>>;
  const error = {
    code: -32600,
    message: 'Invalid Request',
    data: 'Batch arrays are not allowed for protocol 2025-11-25',
  };
  t.same(
    refused,
    [
      { jsonrpc: '2.0', id: 'b1', error },
      { jsonrpc: '2.0', id: 'b2', error },
    ],
    'each request gets its own error; the notification none',
  );
  await modernServer.close();

  const fresh = new InProcessServer({ projectRoot: project });
  fresh.send([{ jsonrpc: '2.0', id: 'early', method: 'initialize', params: { capabilities: {} } }]);
  const early = (await fresh.waitFor((m) => Array.isArray(m))) as unknown as Array<Record<string, unknown>>;
  t.same(
    early,
    [
      {
        jsonrpc: '2.0',
        id: 'early',
        error: { code: -32600, message: 'Invalid Request', data: 'Batch arrays are disabled' },
      },
    ],
    'before negotiation',
  );
  await fresh.close();

  const legacyServer = await startInProcess({ projectRoot: project, protocolVersion: '2025-03-26' });
  legacyServer.send([
    { jsonrpc: '2.0', id: 'b1', method: 'ping' },
    { jsonrpc: '2.0', method: 'notifications/progress' },
    { jsonrpc: '2.0', id: 'b2', method: 'nope' },
  ]);
  const batch = (await legacyServer.waitFor((m) => Array.isArray(m))) as unknown as Array<Record<string, unknown>>;
  t.same(
    batch.map((r) => r.id),
    ['b1', 'b2'],
  );
  t.match(batch[1], { error: { code: -32601 } });
  await legacyServer.close();

  const { isolatedEnv } = await import('../../helpers/run-binary.js');
  const compat = await startInProcess({ projectRoot: project, env: isolatedEnv({ MCPBASH_COMPAT_BATCHES: 'true' }) });
  compat.send([{ jsonrpc: '2.0', id: 'c1', method: 'ping' }]);
  const accepted = (await compat.waitFor((m) => Array.isArray(m))) as unknown as Array<Record<string, unknown>>;
  t.same(accepted, [{ jsonrpc: '2.0', id: 'c1', result: {} }]);
  await compat.close();
});

t.test('MCPBASH_FORCE_MINIMAL: logging only; tool, resource, prompt and completion methods are -32601', async (t) => {
  const { isolatedEnv } = await import('../../helpers/run-binary.js');
  // MCPBASH_JSON_TOOL=none is minimal mode too (1.x: no JSON tool means minimal mode).
  const none = await startInProcess({ projectRoot: project, env: isolatedEnv({ MCPBASH_JSON_TOOL: 'none' }) });
  const server = await startInProcess({ projectRoot: project, env: isolatedEnv({ MCPBASH_FORCE_MINIMAL: 'true' }) });
  for (const minimal of [none, server]) {
    const init = minimal.messages.find((m) => m.id === 1)?.result as { capabilities: unknown };
    t.same(init.capabilities, { logging: {} });
    t.same((await minimal.request('tools/list')).error, {
      code: -32601,
      message: 'Tools capability unavailable in minimal mode',
    });
  }
  await none.close();
  t.same((await server.request('resources/read', { uri: 'file:///x' })).error, {
    code: -32601,
    message: 'Resources capability unavailable in minimal mode',
  });
  t.same((await server.request('prompts/list')).error, {
    code: -32601,
    message: 'Prompts capability unavailable in minimal mode',
  });
  t.same((await server.request('completion/complete', {})).error, {
    code: -32601,
    message: 'Completion capability unavailable in minimal mode',
  });
  await server.close();
});

t.test('the lifecycle answers are not held to MCPBASH_MAX_TOOL_OUTPUT_SIZE (D275)', async (t) => {
  const { isolatedEnv } = await import('../../helpers/run-binary.js');
  const server = await startInProcess({
    projectRoot: project,
    env: isolatedEnv({ MCPBASH_MAX_TOOL_OUTPUT_SIZE: '10' }),
  });
  const init = server.messages.find((m) => m.id === 1);
  t.match(init, { result: { protocolVersion: String, serverInfo: { name: String } } }, 'initialize answered');
  t.same((await server.request('ping')).result, {});
  t.same((await server.request('logging/setLevel', { level: 'debug' })).result, {});
  await server.close();
});

// Through the binary: the bootstrap project comes from the extracted framework files, and
// a start-up failure is the process's exit status.
t.test('no project configured: getting-started mode names itself mcp-bash', async (t) => {
  const cwd = scratchDir('mcpbash-noproject-');
  const server = new McpProcess({ cwd });
  const init = (await server.request('initialize', { capabilities: {} })).result as { serverInfo: { name: string } };
  t.equal(init.serverInfo.name, 'mcp-bash');
  await server.close();
});

t.test('an MCPBASH_PROJECT_ROOT that is not a directory fails fast with a clear message', async (t) => {
  const server = new McpProcess({ projectRoot: '/nonexistent/project/dir' });
  const ended = await server.exited;
  t.equal(ended.code, 1);
  t.match(server.stderr, /MCPBASH_PROJECT_ROOT=\/nonexistent\/project\/dir is not a directory/);
  t.equal(server.messages.length, 0, 'nothing on stdout');
});

t.test('an unsupported transport is refused at start-up (MCPBASH_TRANSPORT or MCP_TRANSPORT)', async (t) => {
  const { isolatedEnv } = await import('../../helpers/run-binary.js');
  for (const variable of ['MCPBASH_TRANSPORT', 'MCP_TRANSPORT']) {
    const server = new InProcessServer({ projectRoot: project, env: isolatedEnv({ [variable]: 'http' }) });
    const ended = await server.exited;
    t.equal(ended.code, 1, variable);
    t.match(server.stderr, /unsupported transport "http"/);
    t.equal(server.messages.length + server.protocolViolations.length, 0, 'nothing on stdout');
  }
});

t.test('the bare `initialized` notification (1.x alias) completes the handshake', async (t) => {
  const server = new InProcessServer({ projectRoot: project });
  await server.request('initialize', { protocolVersion: '2025-11-25', capabilities: {} });
  server.notify('initialized');
  t.same((await server.request('logging/setLevel', { level: 'info' })).result, {});
  await server.close();
});

t.test('notifications other than initialized and cancelled are dropped before initialized', async (t) => {
  const { isolatedEnv } = await import('../../helpers/run-binary.js');
  const server = new InProcessServer({ projectRoot: project, env: isolatedEnv({ MCPBASH_LOG_LEVEL: 'debug' }) });
  await server.request('initialize', { protocolVersion: '2025-11-25', capabilities: { roots: { listChanged: true } } });
  server.notify('notifications/roots/list_changed');
  server.notify('notifications/message', { level: 'info', data: 'early' });
  server.notify('notifications/whatever');
  t.same((await server.request('ping')).result, {});
  for (const method of ['notifications/roots/list_changed', 'notifications/message', 'notifications/whatever']) {
    // The gate notes each drop at debug, so the test need not wait for what does not come.
    await server.waitForStderr(new RegExp(`dropped notification ${method}: Server not initialized`), 5000);
    t.pass(`${method} dropped at the gate`);
  }
  t.equal(server.messages.length, 2, 'no roots/list was asked for, and nothing answered the notifications');
  server.notify('notifications/initialized');
  await server.waitFor((m) => m.method === 'roots/list', 5000, 'the roots/list of initialized');
  await server.close();
});
