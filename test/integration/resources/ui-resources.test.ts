/**
 * MCP Apps through the binary, seen by the official SDK client: the extension capability
 * (only for clients that declare it), UI resources in resources/list and resources/read,
 * `_meta.ui` on tools, what tools learn about the client, the size cap and path traversal.
 */
import { mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import t, { type Test } from 'tap';
import { UI_EXTENSION_ID, UI_MIME_TYPE } from '../../../src/project/ui/ui-resource.js';
import { fixtureProject } from '../../helpers/fixtures.js';
import { checkMcpApps } from '../../helpers/mcp-apps-schema.js';
import { startInitialized } from '../../helpers/mcp-process.js';
import { toolEnv } from '../../helpers/run-binary.js';
import { connectSdkClient, sdkEnv } from '../../helpers/sdk-client.js';

// Results are checked with t.match; a loose type keeps that readable.
type Json = Record<string, any>;

const UI_CAPABILITY = { extensions: { [UI_EXTENSION_ID]: { mimeTypes: [UI_MIME_TYPE] } } };
async function connect(
  t: Test,
  options: { capabilities?: Json; env?: NodeJS.ProcessEnv; protocolVersion?: string; project?: string } = {},
): Promise<{ client: Client; project: string }> {
  const project = options.project ?? fixtureProject('ui');
  const { client } = await connectSdkClient({
    env: sdkEnv(toolEnv({ MCPBASH_PROJECT_ROOT: project, ...options.env })),
    capabilities: { capabilities: options.capabilities ?? {} },
    ...(options.protocolVersion ? { protocolVersion: options.protocolVersion } : {}),
  });
  t.teardown(() => client.close());
  return { client, project };
}

t.test('a client that declares MCP Apps: the extension, the views, _meta.ui on tools', async (t) => {
  const { client } = await connect(t, { capabilities: UI_CAPABILITY });
  t.same(client.getServerCapabilities()?.extensions, { [UI_EXTENSION_ID]: { mimeTypes: [UI_MIME_TYPE] } });

  const { resources } = await client.listResources();
  const views = resources.filter((resource) => resource.uri.startsWith('ui://'));
  t.same(
    views.map((view) => [view.uri, view.name, view.mimeType]),
    [
      ['ui://ui-fixture/dash', 'dash', UI_MIME_TYPE],
      ['ui://ui-fixture/weather', 'weather', UI_MIME_TYPE],
    ],
  );
  const weather = views.find((view) => view.name === 'weather') as Json;
  t.match(weather, { title: 'Weather View', description: 'The weather, drawn' });
  t.same(weather._meta, {
    ui: {
      csp: {
        connectDomains: ['https://api.example.com'],
        resourceDomains: ['https://cdn.example.com'],
        frameDomains: [],
        baseUriDomains: [],
      },
      permissions: { geolocation: {} },
      prefersBorder: false,
    },
  });
  t.same(
    checkMcpApps('McpUiResourceMeta', weather._meta.ui),
    { valid: true },
    "_meta.ui is MCP Apps' McpUiResourceMeta",
  );

  const read = (await client.readResource({ uri: 'ui://ui-fixture/weather' })).contents[0] as Json;
  t.match(read, { uri: 'ui://ui-fixture/weather', mimeType: UI_MIME_TYPE, text: /<p>weather view<\/p>/ });
  t.same(read._meta, weather._meta, 'the read result carries the same _meta.ui');
  const generated = (await client.readResource({ uri: 'ui://ui-fixture/dash' })).contents[0] as Json;
  t.match(generated.text, /^<!DOCTYPE html>[\s\S]*<title>Dash<\/title>/, 'a template view is generated');
  t.same(generated._meta.ui.prefersBorder, true, "1.x's default border");
  const short = (await client.readResource({ uri: 'ui://dash' })).contents[0] as Json;
  t.equal(short.uri, 'ui://dash', "1.x's short form reads too");

  const { tools } = await client.listTools();
  const byName = new Map(tools.map((tool) => [tool.name, tool as Json]));
  t.same(byName.get('get-weather')?._meta, {
    ui: { resourceUri: 'ui://ui-fixture/weather', visibility: ['model', 'app'] },
  });
  t.same(
    byName.get('legacy-ui')?._meta,
    { keep: 1, ui: { resourceUri: 'ui://ui-fixture/dash' } },
    'the deprecated _meta["ui/resourceUri"] is moved to _meta.ui.resourceUri',
  );
  t.ok(byName.has('app-only'), 'an app-only tool is listed to a client with views');
  for (const tool of tools)
    if (tool._meta?.ui)
      t.same(checkMcpApps('McpUiToolMeta', tool._meta.ui), { valid: true }, `${tool.name}: McpUiToolMeta`);

  const env = (await client.callTool({ name: 'ui-env' })).structuredContent;
  t.same(env, { variable: '1', file: '1', supported: 'yes' }, 'MCPBASH_CLIENT_SUPPORTS_UI, the state file, the SDK');
  const result = await client.callTool({ name: 'get-weather', arguments: { city: 'Oslo' } });
  t.same(result.structuredContent, { city: 'Oslo', sky: 'sunny' }, 'mcp_result_with_ui: the data for the view');
  t.same(
    (await client.callTool({ name: 'legacy-ui' }))._meta,
    { ui: { resourceUri: 'ui://ui-fixture/dash' }, exitCode: 0 },
    'and in results',
  );
});

t.test('a client without MCP Apps: no extension, no app-only tools, text-only results', async (t) => {
  for (const [label, capabilities] of [
    ['no extension', {}],
    ['the extension without our MIME type', { extensions: { [UI_EXTENSION_ID]: { mimeTypes: ['text/uri-list'] } } }],
  ] as const) {
    const { client } = await connect(t, { capabilities });
    t.notOk(client.getServerCapabilities()?.extensions, `${label}: not advertised`);
    const names = (await client.listTools()).tools.map((tool) => tool.name);
    t.notOk(names.includes('app-only'), `${label}: the app-only tool is not offered`);
    t.ok(names.includes('get-weather'));
    t.same((await client.callTool({ name: 'ui-env' })).structuredContent, undefined, `${label}: no data without views`);
    t.match((await client.callTool({ name: 'ui-env' })).content, [{ type: 'text', text: 'no' }]);
    t.ok(
      (await client.listResources()).resources.some((resource) => resource.uri === 'ui://ui-fixture/weather'),
      `${label}: the views are still listed (as 1.x did)`,
    );
  }
  const old = await connect(t, { capabilities: UI_CAPABILITY, protocolVersion: '2024-11-05' });
  t.ok(old.client.getServerCapabilities()?.extensions?.[UI_EXTENSION_ID], 'negotiated whatever the protocol version');
});

t.test('the size cap, path traversal, unknown views', async (t) => {
  const project = fixtureProject('ui');
  writeFileSync(join(project, 'secret.txt'), 'not a view');
  symlinkSync(join(project, 'secret.txt'), join(project, 'ui/dash/index.html'));
  const { client } = await connect(t, { project, env: { MCPBASH_MAX_UI_RESOURCE_BYTES: '32' } });
  await t.rejects(client.readResource({ uri: 'ui://ui-fixture/weather' }), {
    code: -32603,
    message: /UI resource exceeded MCPBASH_MAX_UI_RESOURCE_BYTES \(32 bytes\)/,
  });
  await t.rejects(
    client.readResource({ uri: 'ui://ui-fixture/dash' }),
    { code: -32603, message: /Resource outside allowed roots/ },
    'an entrypoint that leads out of its directory is not read',
  );
  for (const uri of [
    'ui://ui-fixture/../server.d',
    'ui://ui-fixture/..%2F..%2Fsecret.txt',
    'ui://ui-fixture/weather/x',
  ])
    await t.rejects(client.readResource({ uri }), { code: -32602, message: /Invalid UI resource URI/ }, uri);
  await t.rejects(client.readResource({ uri: 'ui://ui-fixture/nope' }), {
    code: -32002,
    message: /Resource not found/,
  });
  await t.rejects(client.readResource({ uri: 'ui://other-server/weather' }), { code: -32002 });
});

t.test('a new view is announced with resources/list_changed', async (t) => {
  const project = fixtureProject('ui');
  const server = await startInitialized({ projectRoot: project, env: toolEnv({ MCP_UI_TTL: '0' }) });
  t.teardown(() => server.close());
  t.equal(((await server.request('resources/list')).result as Json).resources.length, 2);
  mkdirSync(join(project, 'ui/fresh'));
  writeFileSync(join(project, 'ui/fresh/index.html'), '<html></html>');
  await server.waitFor((m) => m.method === 'notifications/resources/list_changed', 10_000, 'list_changed');
  const uris = ((await server.request('resources/list')).result as Json).resources.map((r: Json) => r.uri);
  t.ok(uris.includes('ui://ui-fixture/fresh'));
});
