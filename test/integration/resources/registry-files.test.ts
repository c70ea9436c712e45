import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import t from 'tap';
import { fixtureProject } from '../../helpers/fixtures.js';
import { startInProcess } from '../../helpers/in-process-server.js';
import { writtenRegistryFile } from '../../helpers/registry-envelope.js';
import { isolatedEnv } from '../../helpers/run-binary.js';

const names = (result: unknown, key: 'resources' | 'resourceTemplates') =>
  ((result as Record<string, Array<{ name: string }>>)[key] ?? []).map((item) => item.name);

t.test('.registry/resources.json and resource-templates.json: the seed-003 envelope', async (t) => {
  const project = fixtureProject('resources');
  const server = await startInProcess({ projectRoot: project, env: isolatedEnv() });
  t.teardown(() => server.close());
  const listed = names((await server.request('resources/list', { limit: 200 })).result, 'resources');
  const templates = names((await server.request('resources/templates/list')).result, 'resourceTemplates');
  const resourcesFile = await writtenRegistryFile(t, join(project, '.registry', 'resources.json'));
  t.same(
    resourcesFile.items.map((item) => item.name),
    listed,
  );
  t.match(
    resourcesFile.items.find((item) => item.name === 'notes'),
    { path: 'notes.txt', provider: 'file' },
    'internal fields stay in the cache (D16)',
  );
  const templatesFile = await writtenRegistryFile(t, join(project, '.registry', 'resource-templates.json'));
  t.same(
    templatesFile.items.map((item) => item.name),
    templates,
  );
});

t.test(
  'resources and templates are rescanned only after MCP_RESOURCES_TTL / MCP_RESOURCES_TEMPLATES_TTL',
  async (t) => {
    const project = fixtureProject('resources');
    const server = await startInProcess({
      projectRoot: project,
      env: isolatedEnv({ MCP_RESOURCES_TTL: '1', MCP_RESOURCES_TEMPLATES_TTL: '1' }),
    });
    t.teardown(() => server.close());
    const resources = async () => names((await server.request('resources/list', { limit: 200 })).result, 'resources');
    const templates = async () => names((await server.request('resources/templates/list')).result, 'resourceTemplates');
    const scanned = Date.now();
    t.notOk((await resources()).includes('late'));
    t.notOk((await templates()).includes('late-items'));
    writeFileSync(join(project, 'resources', 'late.txt'), 'late\n');
    writeFileSync(
      join(project, 'resources', 'late-items.meta.json'),
      JSON.stringify({ name: 'late-items', uriTemplate: 'myapi://late/{id}' }),
    );
    // Ask until both changes show. The server answered the list that has them at least a TTL
    // after its first scan, which came after `scanned`: so did the answer reach us.
    let found = false;
    let answered = 0;
    while (!found && Date.now() - scanned < 10_000) {
      found = (await resources()).includes('late') && (await templates()).includes('late-items');
      answered = Date.now() - scanned;
    }
    t.ok(found, 'after the TTL both changes are found');
    t.ok(answered >= 1000, `found ${answered} ms after the first scan: within the TTL it was reused`);
    // Written to .registry/resources.json (a moment after the rescan).
    const after = await writtenRegistryFile(t, join(project, '.registry', 'resources.json'), (items) =>
      items.some((item) => item.name === 'late'),
    );
    // Second precision: the rescan, at least a TTL (1 s) after `scanned`, carries a later stamp.
    t.ok(
      Date.parse(after.generatedAt) > Math.floor(scanned / 1000) * 1000,
      `generatedAt is the rescan's (${after.generatedAt}, first scan at ${new Date(scanned).toISOString()})`,
    );
  },
);
