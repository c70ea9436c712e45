/**
 * The CLI's MCP Apps commands: `scaffold ui`, `scaffold ui --tool`, `scaffold tool --ui`
 * (the files, what the server then serves), `validate` on UI views, and `ui-template`.
 */
import { existsSync, mkdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import t, { type Test } from 'tap';
import { cli, newProject, parseJson, sharedCliEnv, tempDir } from '../../helpers/cli-projects.js';
import { startInitialized } from '../../helpers/mcp-process.js';
import { toolEnv } from '../../helpers/run-binary.js';
import { type ValidateMessage, validateJson } from '../../helpers/validate-report.js';

type Json = Record<string, any>;

const env = sharedCliEnv();

async function validateUi(t: Test, root: string): Promise<{ code: number | null; messages: ValidateMessage[] }> {
  const { code, report } = await validateJson(t, env, root);
  return { code, messages: report.messages.filter((message) => message.section === 'ui') };
}

t.test('scaffold ui, scaffold ui --tool, scaffold tool --ui: files the server serves', async (t) => {
  const root = await newProject(t, env);
  const tool = await cli(['scaffold', 'tool', 'weather', '--ui'], env, root);
  t.equal(tool.code, 0, tool.stderr);
  t.match(
    tool.stdout,
    new RegExp(
      'Created tools\\/weather\\/tool\\.sh[\\s\\S]*Created tools\\/weather\\/ui\\/index\\.html\\nCreated ' +
        'tools\\/weather\\/ui\\/ui\\.meta\\.json\\n',
    ),
  );
  t.match(tool.stdout, /The tool's view is ui:\/\/demo\/weather/);
  const standalone = await cli(['scaffold', 'ui', 'dashboard'], env, root);
  t.equal(standalone.code, 0, standalone.stderr);
  for (const file of ['index.html', 'ui.meta.json', 'README.md'])
    t.ok(existsSync(join(root, 'ui/dashboard', file)), file);
  t.match(standalone.stdout, /"_meta": \{"ui": \{"resourceUri": "ui:\/\/demo\/dashboard"\}\}/);
  const forHello = await cli(['scaffold', 'ui', '--tool', 'hello'], env, root);
  t.equal(forHello.code, 0, forHello.stderr);
  t.notOk(existsSync(join(root, 'tools/hello/ui/README.md')), 'no README inside a tool');
  const meta = JSON.parse(readFileSync(join(root, 'ui/dashboard/ui.meta.json'), 'utf8'));
  t.match(meta, {
    description: /Dashboard/,
    meta: { csp: { connectDomains: [], resourceDomains: [] }, prefersBorder: true },
  });
  t.match(readFileSync(join(root, 'tools/weather/ui/index.html'), 'utf8'), /^<!DOCTYPE html>[\s\S]*'ui\/initialize'/);

  const validate = await validateUi(t, root);
  t.equal(validate.code, 0);
  t.same(
    validate.messages.map((message) => message.message),
    [
      'tools/hello/ui: UI resource ui://demo/hello',
      'tools/weather/ui: UI resource ui://demo/weather',
      'ui/dashboard: UI resource ui://demo/dashboard',
    ],
  );
  const server = await startInitialized({ projectRoot: root, env: toolEnv() });
  t.teardown(() => server.close());
  const uris = ((await server.request('resources/list')).result as Json).resources.map((r: Json) => r.uri);
  t.same(uris, ['ui://demo/dashboard', 'ui://demo/hello', 'ui://demo/weather']);
  const tools = ((await server.request('tools/list')).result as Json).tools as Json[];
  t.same(tools.find((item) => item.name === 'weather')?._meta, {
    ui: { resourceUri: 'ui://demo/weather', visibility: ['model', 'app'] },
  });
  const read = ((await server.request('resources/read', { uri: 'ui://demo/weather' })).result as Json).contents[0];
  t.match(read, { mimeType: 'text/html;profile=mcp-app', text: /<h2>Weather<\/h2>/ });
});

t.test('scaffold ui refuses what exists, a missing tool, a bad name, no name', async (t) => {
  const root = await newProject(t, env);
  t.equal((await cli(['scaffold', 'ui', 'dash'], env, root)).code, 0);
  const again = await cli(['scaffold', 'ui', 'dash'], env, root);
  t.equal(again.code, 1);
  t.match(again.stderr, /ui\/dash\/ already exists/);
  const noTool = await cli(['scaffold', 'ui', '--tool', 'nope'], env, root);
  t.equal(noTool.code, 1);
  t.match(noTool.stderr, /tools\/nope\/ does not exist\n.*scaffold tool nope --ui/);
  t.equal((await cli(['scaffold', 'ui', '--tool', 'hello'], env, root)).code, 0);
  const twice = await cli(['scaffold', 'ui', '--tool', 'hello'], env, root);
  t.equal(twice.code, 1, 'a tool UI is not overwritten');
  t.match(twice.stderr, /tools\/hello\/ui\/index\.html, tools\/hello\/ui\/ui\.meta\.json already exist\n/);
  t.equal((await cli(['scaffold', 'ui', 'a.b'], env, root)).code, 1);
  const none = await cli(['scaffold', 'ui'], env, root);
  t.equal(none.code, 1, "scaffold's usage status (1.x)");
  t.match(none.stderr, /a view name \(or --tool\) is required\nUsage: mcp-bash scaffold ui/);
  t.equal((await cli(['scaffold', 'ui', 'x', '--project-root', root], env, tempDir())).code, 0, '--project-root');
});

t.test('validate: UI metadata, template configs, entrypoints, names, tool _meta.ui', async (t) => {
  const root = await newProject(t, env);
  const write = (path: string, text: string) => {
    mkdirSync(join(root, path, '..'), { recursive: true });
    writeFileSync(join(root, path), text);
  };
  write('tools/hello/ui/ui.meta.json', JSON.stringify({ template: 'form', config: { fields: [{ type: 'select' }] } }));
  write('ui/broken/ui.meta.json', '{nope');
  write(
    'ui/schema/ui.meta.json',
    JSON.stringify({ template: 'chart', meta: { csp: { connectDomains: 'x' }, prefersBorder: 'yes' } }),
  );
  write('ui/empty/ui.meta.json', JSON.stringify({ description: 'nothing to serve' }));
  write('ui/escape/ui.meta.json', JSON.stringify({ entrypoint: '../../secret.txt' }));
  write('ui/escape/index.html', '<html></html>');
  mkdirSync(join(root, 'ui/bare'), { recursive: true });
  write('ui/hello/index.html', '<html></html>');
  write('ui/big/index.html', 'x'.repeat(64));
  write('secret.txt', 'secret');
  mkdirSync(join(root, 'ui/link'), { recursive: true });
  symlinkSync(join(root, 'secret.txt'), join(root, 'ui/link/index.html'));
  write('tools/app/tool.sh', '#!/usr/bin/env bash\necho app\n');
  write(
    'tools/app/tool.meta.json',
    JSON.stringify({
      name: 'demo-app',
      description: 'd',
      inputSchema: { type: 'object', properties: {} },
      _meta: { ui: { resourceUri: 'ui://demo/missing', visibility: ['user'] } },
    }),
  );
  write(
    'tools/other/tool.meta.json',
    JSON.stringify({
      name: 'demo-other',
      description: 'd',
      inputSchema: { type: 'object', properties: {} },
      _meta: { ui: { resourceUri: 'ui://demo/missing' } },
    }),
  );
  write('tools/other/tool.sh', '#!/usr/bin/env bash\necho other\n');
  const run = await cli(['validate', '--json'], { ...env, MCPBASH_MAX_UI_RESOURCE_BYTES: '32' }, root);
  const report = parseJson(t, run.stdout, 'validate') as { messages: ValidateMessage[] };
  t.equal(run.code, 1);
  const ui = report.messages.filter((message) => message.section === 'ui');
  const has = (level: string, pattern: RegExp, what: string) =>
    t.ok(
      ui.some((message) => message.level === level && pattern.test(message.message)),
      `${what}: ${JSON.stringify(ui, null, 1)}`,
    );
  // A template config item or a tool's _meta.ui value the server drops is a warning too (D193).
  has(
    'warning',
    new RegExp(
      "^tools\\/hello\\/ui\\/ui\\.meta\\.json \\/config\\/fields\\/0: must have required property 'name'.*: " +
        'the server ignores this value$',
    ),
    'a template config field',
  );
  has('error', /^ui\/broken\/ui\.meta\.json: invalid JSON/, 'invalid JSON');
  // What the server serves around (the value dropped, its default used) is a warning (D193).
  const ignoredAt = (dir: string, field: string, problem: string) =>
    new RegExp(`^${dir}/ui\\.meta\\.json ${field}: ${problem}.*: the server ignores this value$`);
  const ignored = (field: string, problem: string) => ignoredAt('ui/schema', field, problem);
  has('warning', ignored('/template', 'must be one of "form", "data-table"'), 'an unknown template');
  has('warning', ignored('/meta/csp/connectDomains', 'must be array'), 'CSP lists');
  has('warning', ignored('/meta/prefersBorder', 'must be boolean'), 'prefersBorder');
  // The rule in the server's words, not ajv's "must NOT be valid" of the schema's `not`.
  has(
    'warning',
    ignoredAt(
      'ui/escape',
      '/entrypoint',
      'entrypoint must be a relative path inside the UI directory \\(index\\.html is used\\)',
    ),
    'an entrypoint outside the directory',
  );
  has(
    'error',
    /^ui\/schema: neither index\.html nor a "template": the view serves nothing/,
    'so the view is not served',
  );
  has('error', /^ui\/empty: neither index\.html nor a "template": the view serves nothing/, 'nothing to serve');
  has('warning', /^ui\/bare: neither index\.html nor ui\.meta\.json: not a UI resource/, 'an empty directory');
  has('warning', /^ui\/hello: tools\/hello\/ui\/ has the same name; this one is not served/, 'a name a tool UI has');
  has('error', /^ui\/big\/index\.html: 64 bytes, over MCPBASH_MAX_UI_RESOURCE_BYTES \(32\)/, 'the size cap');
  has('error', /^ui\/link\/index\.html: index\.html leads outside its UI directory/, 'a symlink out');
  has(
    'warning',
    new RegExp(
      '^tools\\/app\\/tool\\.meta\\.json \\/_meta\\/ui\\/visibility\\/0: must be one of "model", "app".*: the ' +
        'server ignores this value$',
    ),
    'visibility',
  );
  has(
    'warning',
    new RegExp(
      '^tools\\/other\\/tool\\.sh \\/_meta\\/ui\\/resourceUri: tool "demo-other": no UI resource of this ' +
        'project is ui:\\/\\/demo\\/missing',
    ),
    'an unknown view',
  );
  t.notOk(
    report.messages.some((message) => message.section === 'tools' && /ui\.meta\.json/.test(message.message)),
    "a tool's ui/ui.meta.json is not tool metadata",
  );
  const served = ui.filter((message) => message.level === 'info' && /UI resource ui:/.test(message.message));
  t.same(
    served.map((message) => message.file).sort(),
    ['tools/hello/ui', 'ui/escape'],
    'no ✓ for a view that is not served (a name a tool UI has) or whose reads are refused or fail',
  );
});

t.test('ui-template prints a template page from --config JSON, @FILE or stdin', async (t) => {
  const inline = await cli(
    ['ui-template', 'data-table', '--config', '{"title":"Disks","columns":[{"key":"mount"}]}'],
    env,
  );
  t.equal(inline.code, 0, inline.stderr);
  t.match(inline.stdout, /^<!DOCTYPE html>[\s\S]*<h2>Disks<\/h2>[\s\S]*<th scope="col">mount<\/th>/);
  const dir = tempDir();
  writeFileSync(join(dir, 'config.json'), '{"title":"From a file"}');
  t.match(
    (await cli(['ui-template', 'kanban', '--config', `@${join(dir, 'config.json')}`], env)).stdout,
    /<h2>From a file<\/h2>/,
  );
  t.match(
    (await cli(['ui-template', 'form', '--config', '-'], env, dir, '{"title":"Piped"}')).stdout,
    /<h2>Piped<\/h2>/,
  );
  t.match((await cli(['ui-template', 'progress'], env)).stdout, /<h2>Progress<\/h2>/, 'no config: the defaults');
  const unknown = await cli(['ui-template', 'chart'], env);
  t.equal(unknown.code, 2);
  t.match(
    unknown.stderr,
    /unknown template "chart" \(templates: form, data-table, progress, diff-viewer, tree-view, kanban\)/,
  );
  const bad = await cli(['ui-template', 'form', '--config', '[1]'], env);
  t.equal(bad.code, 1);
  t.match(bad.stderr, /--config must be a JSON object/);
  const broken = await cli(['ui-template', 'form', '--config', '{'], env);
  t.equal(broken.code, 1);
  t.match(broken.stderr, /--config is not valid JSON/);
  t.equal((await cli(['ui-template'], env)).code, 2);
});
