import { chmodSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import t from 'tap';
import { fixtureProject } from '../../helpers/fixtures.js';
import { startInProcess } from '../../helpers/in-process-server.js';
import { isolatedEnv } from '../../helpers/run-binary.js';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function lists(project: string, env: NodeJS.ProcessEnv = {}) {
  const server = await startInProcess({ projectRoot: project, env: isolatedEnv(env) });
  const resources = await server.request('resources/list', { limit: 200 });
  const templates = await server.request('resources/templates/list');
  const read = await server.request('resources/read', { name: 'manual-status' });
  await server.close();
  return { resources, templates, read };
}

const names = (result: unknown, key: string) =>
  ((result as Record<string, Array<{ name: string }>>)[key] ?? []).map((item) => item.name);

t.test('register.json resources replace discovery; templates merge over discovered ones', async (t) => {
  const project = fixtureProject('resources');
  writeFileSync(
    join(project, 'server.d', 'register.json'),
    JSON.stringify({
      version: 1,
      resources: [
        { name: 'manual-status', uri: 'myapi://status', description: 'registered by hand' },
        { name: 'manual-csv', uri: 'file:///data/table.csv', annotations: { priority: 1 } },
      ],
      resourceTemplates: [
        { name: 'files', uriTemplate: 'file:///{+path}', description: 'manual override' },
        { name: 'logs', title: 'Logs', uriTemplate: 'file:///var/log/{service}.log' },
      ],
    }),
  );
  const { resources, templates, read } = await lists(project);
  t.same((resources.result as { resources: unknown[] }).resources, [
    { uri: 'file:///data/table.csv', name: 'manual-csv', mimeType: 'text/csv', annotations: { priority: 1 } },
    { uri: 'myapi://status', name: 'manual-status', description: 'registered by hand' },
  ]);
  t.same(
    (templates.result as { resourceTemplates: unknown[] }).resourceTemplates,
    [
      { uriTemplate: 'file:///{+path}', name: 'files', description: 'manual override' },
      { uriTemplate: 'myapi://items/{id}', name: 'item', mimeType: 'text/x-item' },
      { uriTemplate: 'file:///var/log/{service}.log', name: 'logs', title: 'Logs' },
      { uriTemplate: 'notes://{id}', name: 'notes' },
    ],
    'the "notes" template is kept: no resource of that name is registered now',
  );
  t.match(
    read.result,
    { contents: [{ uri: 'myapi://status', text: '{"ok":true}' }] },
    'the provider is inferred from the scheme',
  );
});

t.test('register.json: [] disables templates; an invalid resource entry is skipped, the rest served', async (t) => {
  const project = fixtureProject('resources');
  const registerJson = join(project, 'server.d', 'register.json');
  writeFileSync(registerJson, '{"version":1,"resourceTemplates":[]}');
  const disabled = await lists(project);
  t.same(names(disabled.templates.result, 'resourceTemplates'), []);
  t.ok(names(disabled.resources.result, 'resources').includes('notes'), 'resources still discovered');
  writeFileSync(
    registerJson,
    JSON.stringify({
      version: 1,
      resources: [
        { name: 'x', uri: 'x://y', provider: '../../bin/sh' },
        { name: 'manual-status', uri: 'myapi://status' },
      ],
    }),
  );
  const server = await startInProcess({ projectRoot: project, env: isolatedEnv() });
  const resources = await server.request('resources/list', { limit: 200 });
  const templates = await server.request('resources/templates/list');
  const read = await server.request('resources/read', { name: 'manual-status' });
  await server.close();
  t.same(names(resources.result, 'resources'), ['manual-status'], 'only the bad entry is gone');
  t.ok(names(templates.result, 'resourceTemplates').length > 0, 'templates are still discovered');
  t.match(read.result, { contents: [{ text: '{"ok":true}' }] });
  t.match(
    server.stderr,
    new RegExp(
      'register\\.json: resources: resources\\[0\\]: provider "\\.\\.\\/\\.\\.\\/bin\\/sh" is not a provider ' +
        'name.*; the entry is skipped',
    ),
  );
});

t.test('register.sh registers resources and templates (hooks on)', async (t) => {
  const project = fixtureProject('resources');
  const hook = join(project, 'server.d', 'register.sh');
  writeFileSync(
    hook,
    [
      '#!/usr/bin/env bash',
      'mcp_register_resource \'{"name":"manual-status","uri":"myapi://status"}\'',
      'mcp_resources_templates_manual_begin',
      'mcp_resources_templates_register_manual \'{"name":"by-hook","uriTemplate":"myapi://items/{id}"}\'',
      'mcp_resources_templates_manual_finalize',
      '',
    ].join('\n'),
  );
  chmodSync(hook, 0o755);
  const { resources, templates, read } = await lists(project, { MCPBASH_ALLOW_PROJECT_HOOKS: 'true' });
  t.same(names(resources.result, 'resources'), ['manual-status']);
  t.same(names(templates.result, 'resourceTemplates'), ['by-hook', 'files', 'item', 'notes']);
  t.match(read.result, { contents: [{ text: '{"ok":true}' }] });
});

t.test('changes to resources and templates send resources/list_changed, never on the first scan', async (t) => {
  const project = fixtureProject('resources');
  const ttls = { MCP_TOOLS_TTL: '0', MCP_RESOURCES_TTL: '0', MCP_RESOURCES_TEMPLATES_TTL: '0', MCP_PROMPTS_TTL: '0' };
  const server = await startInProcess({ projectRoot: project, env: isolatedEnv(ttls) });
  t.teardown(() => server.close());
  await server.request('resources/list');
  await server.request('resources/templates/list');
  // Nothing marks a background poll (every second; TTL 0): 1.3 s holds at least one.
  await sleep(1300);
  t.equal(
    server.notifications('notifications/resources/list_changed').length,
    0,
    'resources and templates hashes are each their own baseline',
  );
  writeFileSync(join(project, 'resources', 'late.txt'), 'late\n');
  await server.waitFor(
    (m) => m.method === 'notifications/resources/list_changed',
    5000,
    'list_changed after a new resource',
  );
  t.ok(names((await server.request('resources/list', { limit: 200 })).result, 'resources').includes('late'));
  writeFileSync(
    join(project, 'resources', 'late-template.meta.json'),
    '{"name":"late-template","uriTemplate":"late://{x}"}',
  );
  await server.waitFor(
    () => server.notifications('notifications/resources/list_changed').length >= 2,
    5000,
    'list_changed after a new template',
  );
  t.ok(names((await server.request('resources/templates/list')).result, 'resourceTemplates').includes('late-template'));
  t.equal(server.notifications('notifications/prompts/list_changed').length, 0);
});
