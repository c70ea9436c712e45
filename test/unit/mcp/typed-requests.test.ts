/**
 * Issue 14.1: every MCP request method is registered with a params parser, and params a
 * method cannot use get one answer shape: -32602 with `data.field` naming the param (D190).
 * In-process: the real server and engine over the memory transport.
 */
import { rmSync } from 'node:fs';
import { PassThrough } from 'node:stream';
import t, { type Test } from 'tap';
import { frameworkHomeAt } from '../../../src/assets/framework-home.js';
import { loadServerConfig } from '../../../src/config/server-config.js';
import { McpServer } from '../../../src/mcp/mcp-server.js';
import { serverModules } from '../../../src/mcp/server-modules.js';
import { openProject } from '../../../src/project/project-context.js';
import { fixtureProject } from '../../helpers/fixtures.js';
import { MemoryTransport } from '../../helpers/memory-transport.js';
import { repoRoot } from '../../helpers/paths.js';
import { scratchDir } from '../../helpers/scratch.js';

/** Params each method cannot use, and the param the error must name. */
const BAD_REQUESTS: ReadonlyArray<[method: string, params: unknown, field: string]> = [
  ['tools/list', { cursor: 5 }, 'cursor'],
  ['tools/call', { name: 5 }, 'name'],
  ['tools/call', { name: 'echo', arguments: 'text' }, 'arguments'],
  ['tools/call', { name: 'echo', arguments: {}, timeoutSecs: -1 }, 'timeoutSecs'],
  ['prompts/list', { cursor: [] }, 'cursor'],
  ['prompts/get', {}, 'name'],
  ['prompts/get', { name: 'p', arguments: { a: { b: 1 } } }, 'arguments.a'],
  ['resources/list', { cursor: {} }, 'cursor'],
  ['resources/templates/list', { cursor: 1 }, 'cursor'],
  ['resources/read', {}, 'uri'],
  ['resources/read', { uri: 'file:///x\u0000y' }, 'uri'],
  ['resources/subscribe', {}, 'uri'],
  ['completion/complete', { ref: 'x' }, 'ref'],
  ['completion/complete', { ref: { type: 'ref/prompt', name: 'p' }, argument: {} }, 'argument.name'],
  ['logging/setLevel', { level: 'loud' }, 'level'],
];

function startServer(t: Test) {
  const env = { MCPBASH_ORPHAN_CHECK_ENABLED: 'false', MCPBASH_IDLE_TIMEOUT: '0' };
  const home = frameworkHomeAt(repoRoot);
  if (!home) throw new Error('the source tree is not a framework home');
  const stateDir = scratchDir('mcpbash-typed-');
  const transport = new MemoryTransport();
  const server = new McpServer({
    input: new PassThrough(),
    output: new PassThrough(),
    stderr: new PassThrough(),
    env,
    config: loadServerConfig(env),
    home,
    project: openProject(fixtureProject('tools')),
    stateDir,
    transport,
    modules: serverModules,
  });
  const ended = server.run();
  t.teardown(async () => {
    await server.stop(0, 'abort');
    await ended;
    rmSync(stateDir, { recursive: true, force: true });
  });
  return { server, transport };
}

t.test('every request method is registered with a params parser', async (t) => {
  const { server } = startServer(t);
  // The engine's method table (src/jsonrpc/engine.ts) is private: reach into it.
  const registered = (server.engine as unknown as { requestHandlers: Map<string, { parse?: unknown }> })
    .requestHandlers;
  t.ok(registered.size >= 15, `${registered.size} request methods`);
  const unparsed = [...registered].filter(([, entry]) => typeof entry.parse !== 'function').map(([name]) => name);
  t.same(unparsed, [], 'methods whose handler would get raw params');
});

t.test('params a method cannot use: -32602 naming the field, for every method', async (t) => {
  const { transport } = startServer(t);
  transport.deliver({
    jsonrpc: '2.0',
    id: 'init',
    method: 'initialize',
    params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 't', version: '1' } },
  });
  await transport.response('init');
  transport.deliver({ jsonrpc: '2.0', method: 'notifications/initialized' });
  for (const [index, [method, params, field]] of BAD_REQUESTS.entries()) {
    transport.deliver({ jsonrpc: '2.0', id: index, method, params });
    const answer = (await transport.response(index)) as { error?: { code: number; data?: { field?: unknown } } };
    t.equal(answer.error?.code, -32602, `${method} ${JSON.stringify(params)}: -32602`);
    t.equal(answer.error?.data?.field, field, `${method}: data.field names "${field}"`);
  }
  transport.deliver({ jsonrpc: '2.0', id: 'bad-init', method: 'initialize', params: { protocolVersion: 7 } });
  const again = (await transport.response('bad-init')) as { error?: { code: number } };
  t.ok(again.error, 'a second initialize is refused');
});
