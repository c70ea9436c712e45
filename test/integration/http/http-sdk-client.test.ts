import { cpSync, existsSync, mkdirSync, readFileSync, realpathSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import {
  ElicitRequestSchema,
  ListRootsRequestSchema,
  LoggingMessageNotificationSchema,
  ResourceUpdatedNotificationSchema,
} from '@modelcontextprotocol/sdk/types.js';
import t from 'tap';
import { fixtureProject, fixtureSource } from '../../helpers/fixtures.js';
import { connectHttpClient, startHttpServer } from '../../helpers/http-server.js';
import { eventually, isAlive } from '../../helpers/processes.js';
import { toolEnv } from '../../helpers/run-binary.js';
import { scratchDir } from '../../helpers/scratch.js';

// One server, several official SDK clients over Streamable HTTP: every feature that works
// over stdio, and two sessions that each see only their own roots, log level and
// subscriptions.

/** The tools fixture with the resources and prompts fixtures' files added. */
function combinedProject(): string {
  const project = fixtureProject('tools');
  mkdirSync(join(project, 'resources'));
  mkdirSync(join(project, 'prompts'));
  cpSync(join(fixtureSource('resources'), 'resources', 'notes.txt'), join(project, 'resources', 'notes.txt'));
  cpSync(join(fixtureSource('prompts'), 'prompts', 'greet.meta.json'), join(project, 'prompts', 'greet.meta.json'));
  cpSync(join(fixtureSource('prompts'), 'prompts', 'greet.txt'), join(project, 'prompts', 'greet.txt'));
  return project;
}

type Dump = { roots: Array<{ path: string }> };

function structured<T>(result: unknown): T {
  return (result as { structuredContent: T }).structuredContent;
}

/** A client that answers roots/list with `root` and collects the log messages it gets. */
async function clientWithRoot(url: string, name: string, root: string) {
  const { client, transport } = await connectHttpClient(url, {
    name,
    capabilities: { capabilities: { roots: { listChanged: true }, elicitation: { form: {} } } },
  });
  client.setRequestHandler(ListRootsRequestSchema, async () => ({ roots: [{ uri: `file://${root}`, name }] }));
  const logs: Array<{ level: string; data: unknown }> = [];
  client.setNotificationHandler(LoggingMessageNotificationSchema, (message) => {
    logs.push({ level: message.params.level, data: message.params.data });
  });
  const updates: string[] = [];
  client.setNotificationHandler(ResourceUpdatedNotificationSchema, (message) => {
    updates.push(message.params.uri);
  });
  return { client, transport, logs, updates };
}

/** roots-dump until the client's roots have arrived (roots/list travels on the GET stream). */
async function rootsSeen(client: Client, expected: string): Promise<string[]> {
  let paths: string[] = [];
  const deadline = Date.now() + 10_000;
  while (!paths.includes(expected) && Date.now() < deadline) {
    paths = structured<Dump>(await client.callTool({ name: 'roots-dump' })).roots.map((root) => root.path);
  }
  return paths;
}

t.test('the official SDK client over Streamable HTTP: every feature, two isolated sessions', async (t) => {
  const project = combinedProject();
  const server = await startHttpServer(t, {
    env: toolEnv({ MCPBASH_PROJECT_ROOT: project, MCPBASH_RESOURCES_POLL_INTERVAL_SECS: '0.2' }),
  });
  t.match(server.url, /^http:\/\/127\.0\.0\.1:\d+\/mcp$/, 'the one line on stderr names the endpoint');
  t.equal(server.stderr().match(/listening on/g)?.length, 1);

  const rootA = realpathSync(scratchDir('mcpbash-http-a-'));
  const rootB = realpathSync(scratchDir('mcpbash-http-b-'));
  const a = await clientWithRoot(server.url, 'client-a', rootA);
  const b = await clientWithRoot(server.url, 'client-b', rootB);
  t.teardown(() => Promise.all([a.client.close(), b.client.close()]));

  t.test('initialize, ping, lists, prompts/get, resources/read, completion', async (t) => {
    t.equal(a.client.getServerVersion()?.name, 'tools-fixture');
    t.ok(a.transport.sessionId, 'a session id');
    t.not(a.transport.sessionId, b.transport.sessionId, 'each client its own session');
    t.match(a.client.getServerCapabilities(), { tools: { listChanged: true }, resources: { subscribe: true } });
    const { tools } = await a.client.listTools();
    t.ok(tools.some((tool) => tool.name === 'echo-json'));
    const echoed = await a.client.callTool({ name: 'echo-json', arguments: { text: 'over http' } });
    t.match(echoed.structuredContent, { args: { text: 'over http' } });
    const prompt = await a.client.getPrompt({ name: 'greet', arguments: { name: 'Ada' } });
    t.match(prompt.messages[0]?.content, { type: 'text', text: /^Hello Ada!/ });
    const notes = join(project, 'resources', 'notes.txt');
    const read = await a.client.readResource({ uri: `file://${notes}` });
    t.match(read.contents[0], { text: 'hello notes\n' });
    // The rest of what stdio serves, over HTTP too.
    t.same(await a.client.ping(), {}, 'ping');
    t.ok(
      (await a.client.listPrompts()).prompts.some((item) => item.name === 'greet'),
      'prompts/list',
    );
    t.ok(Array.isArray((await a.client.listResources()).resources), 'resources/list');
    t.ok(Array.isArray((await a.client.listResourceTemplates()).resourceTemplates), 'resources/templates/list');
    const completion = await a.client.complete({
      ref: { type: 'ref/prompt', name: 'greet' },
      argument: { name: 'name', value: '' },
    });
    t.ok(Array.isArray(completion.completion.values), 'completion/complete');
  });

  t.test('progress rides the call stream; a cancelled call stops its tool', async (t) => {
    const ticks: number[] = [];
    const result = await a.client.callTool({ name: 'slow', arguments: { seconds: 1 } }, undefined, {
      onprogress: (progress) => {
        ticks.push(progress.progress);
      },
    });
    t.match(result.content, [{ text: 'finished after 1 s' }]);
    // The fixture loops until bash's whole-second SECONDS moves on: one tick is all a
    // 1-second run is sure to send.
    t.ok(ticks.length >= 1, `progress arrived while it ran (${ticks.length})`);

    const marker = join(scratchDir('mcpbash-http-cancel-'), 'm');
    const controller = new AbortController();
    const call = a.client.callTool({ name: 'slow', arguments: { seconds: 60, marker } }, undefined, {
      signal: controller.signal,
      onprogress: () => controller.abort('enough'),
    });
    await t.rejects(call, 'the aborted call rejects');
    t.ok(await eventually(() => existsSync(`${marker}.cancelled`), 10_000), 'the tool saw notifications/cancelled');
    const pid = Number(readFileSync(`${marker}.pid`, 'utf8'));
    t.ok(await eventually(() => !isAlive(pid), 10_000), 'its process is gone');
  });

  t.test('roots and log levels are per session', async (t) => {
    t.ok((await rootsSeen(a.client, rootA)).includes(rootA), 'A sees its root');
    const pathsB = await rootsSeen(b.client, rootB);
    t.ok(pathsB.includes(rootB), 'B sees its root');
    t.notOk(pathsB.includes(rootA), "B never sees A's root");

    await a.client.setLoggingLevel('debug');
    await b.client.setLoggingLevel('error');
    a.logs.length = 0;
    b.logs.length = 0;
    await a.client.callTool({ name: 'logger' });
    await b.client.callTool({ name: 'logger' });
    const levelsA = a.logs.filter((log) => log.data === 'at debug' || log.data === 'at error').map((log) => log.level);
    const levelsB = b.logs.map((log) => log.level);
    t.same(levelsA, ['debug', 'error'], 'A at debug gets the debug line');
    t.ok(levelsB.length > 0, 'B gets its errors');
    t.ok(
      levelsB.every((level) => level === 'error'),
      `B at error gets nothing below (${levelsB.join(',')})`,
    );
  });

  t.test('elicitation travels with the call and its answer reaches the tool', async (t) => {
    const asked: string[] = [];
    a.client.setRequestHandler(ElicitRequestSchema, async (request) => {
      asked.push(request.params.message);
      return { action: 'accept', content: { confirmed: true } };
    });
    const result = await a.client.callTool({ name: 'elicit', arguments: {} });
    t.same(asked, ['Proceed?']);
    t.match(result.content, [{ text: /"supported":true.*"confirmed":true/ }]);
  });

  t.test('resources/subscribe: only the subscribed session hears of a change', async (t) => {
    const notes = join(project, 'resources', 'notes.txt');
    const uri = `file://${notes}`;
    await a.client.subscribeResource({ uri });
    writeFileSync(notes, 'changed\n');
    t.ok(await eventually(() => a.updates.includes(uri), 10_000), 'A got resources/updated');
    // B's session shares the project but never subscribed: a later change still misses it.
    writeFileSync(notes, 'changed again\n');
    t.ok(await eventually(() => a.updates.length >= 2, 10_000), 'A got the second one');
    t.same(b.updates, [], 'B got none');
  });
});
