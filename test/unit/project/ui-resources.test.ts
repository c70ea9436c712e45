import { mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import t, { type Test } from 'tap';
import { walkTree } from '../../../src/project/discovery-files.js';
import { projectLayout } from '../../../src/project/project-layout.js';
import type { ToolDefinition } from '../../../src/project/tools/tool-definition.js';
import { isVisibleToModel, normalizeUiMeta, withInferredUi } from '../../../src/project/ui/tool-ui-meta.js';
import { readUiResource } from '../../../src/project/ui/ui-content.js';
import { scanUiResources, toolsWithUiDir } from '../../../src/project/ui/ui-discovery.js';
import { findUiResource } from '../../../src/project/ui/ui-lookup.js';
import { normalizeUiMetadata, safeEntrypoint } from '../../../src/project/ui/ui-metadata.js';
import { parseUiUri, uiResourceUri } from '../../../src/project/ui/ui-uri.js';

function write(path: string, text: string): void {
  mkdirSync(join(path, '..'), { recursive: true });
  writeFileSync(path, text);
}

function project(t: Test) {
  const root = t.testdir();
  const layout = projectLayout(root, {});
  return { root, layout, options: { ...layout, serverName: 'srv' } };
}

t.test('ui.meta.json: 1.x defaults, bad fields fall back with a warning', async (t) => {
  const defaults = normalizeUiMetadata({}, 'dash', 'ui/dash/ui.meta.json');
  t.same(defaults.fields, {
    description: 'UI resource for dash',
    entrypoint: 'index.html',
    ui: {
      csp: { connectDomains: [], resourceDomains: [], frameDomains: [], baseUriDomains: [] },
      permissions: {},
      prefersBorder: true,
    },
  });
  t.same(defaults.warnings, []);
  const full = normalizeUiMetadata(
    {
      description: 'D',
      title: 'T',
      entrypoint: 'app/main.html',
      template: 'kanban',
      config: { title: 'Board' },
      meta: {
        csp: { connectDomains: ['https://api.example.com'], frameDomains: 'x', styleDomains: [] },
        permissions: { camera: {}, microphone: true, usb: {} },
        prefersBorder: false,
        domain: 'abc.example.com',
      },
    },
    'dash',
    'owner',
  );
  t.match(full.fields, {
    title: 'T',
    entrypoint: 'app/main.html',
    template: 'kanban',
    config: { title: 'Board' },
    ui: { csp: { connectDomains: ['https://api.example.com'], frameDomains: [] }, prefersBorder: false },
  });
  t.same(full.fields.ui.permissions, { camera: {} }, 'only MCP Apps permissions, each an object');
  t.equal(full.fields.ui.domain, 'abc.example.com');
  t.equal(full.warnings.length, 4, full.warnings.join('\n'));
  const escaping = normalizeUiMetadata({ entrypoint: '../../etc/passwd', template: 'chart' }, 'x', 'o');
  t.equal(escaping.fields.entrypoint, 'index.html', 'an entrypoint outside the directory is refused');
  t.notOk(escaping.fields.template, 'an unknown template is dropped');
  t.match(escaping.warnings, [/entrypoint/, /template "chart" is unknown/]);
  for (const bad of ['/abs.html', '..', 'a/../../b', 'a\\b', ''])
    t.equal(safeEntrypoint(bad), undefined, JSON.stringify(bad));
  t.equal(safeEntrypoint('./a//b.html'), 'a/b.html');
});

t.test('ui:// URIs: server and name, no way out of a UI directory', async (t) => {
  t.equal(uiResourceUri('my server', 'a b'), 'ui://my%20server/a%20b');
  t.same(parseUiUri('ui://srv/dash'), { ok: true, server: 'srv', name: 'dash' });
  t.same(parseUiUri('ui://dash'), { ok: true, name: 'dash' }, "1.x's short form");
  for (const bad of ['ui://srv/../x', 'ui://srv/a/b', 'ui://srv/..%2Fx', 'ui://srv/%2e%2e', 'ui://srv/a%5Cb', 'ui://'])
    t.equal(parseUiUri(bad).ok, false, bad);
  const items = [{ name: 'dash', uri: 'ui://srv/dash' }] as unknown as Parameters<typeof findUiResource>[0];
  t.equal(findUiResource(items, 'ui://srv/dash'), items[0]);
  t.equal(findUiResource(items, 'ui://dash'), items[0]);
  t.equal(findUiResource(items, 'ui://other/dash'), undefined, 'another server: not ours');
  t.equal(findUiResource(items, 'file:///x'), undefined);
  t.throws(() => findUiResource(items, 'ui://srv/../dash'), {
    name: 'ProjectError',
    kind: 'invalid-request',
    message: /Invalid UI resource URI/,
  });
});

t.test('discovery: tool ui/ and standalone ui/<name>/, sorted; empty or broken ones skipped', async (t) => {
  const { root, options } = project(t);
  write(join(root, 'tools/weather/ui/index.html'), '<html></html>');
  write(join(root, 'tools/weather/tool.sh'), '#!/bin/sh\n');
  write(join(root, 'tools/form/ui/ui.meta.json'), '{"template":"form"}');
  mkdirSync(join(root, 'tools/empty/ui'), { recursive: true });
  write(join(root, 'tools/nothing/ui/ui.meta.json'), '{"description":"no html, no template"}');
  write(join(root, 'tools/broken/ui/ui.meta.json'), '{not json');
  write(join(root, 'ui/dash/ui.meta.json'), '{"template":"data-table","meta":{"prefersBorder":false}}');
  write(join(root, 'ui/weather/index.html'), '<html>duplicate</html>');
  write(join(root, 'ui/.hidden/index.html'), '<html></html>');
  const scan = scanUiResources(options);
  t.same(
    scan.items.map((item) => [item.name, item.source, item.uri]),
    [
      ['dash', 'standalone', 'ui://srv/dash'],
      ['form', 'tool', 'ui://srv/form'],
      ['weather', 'tool', 'ui://srv/weather'],
    ],
  );
  t.match(scan.warnings.join('\n'), /tools\/broken\/ui\/ui\.meta\.json: invalid metadata/);
  t.match(scan.warnings.join('\n'), /tools\/nothing\/ui: neither index\.html nor a template/);
  t.match(scan.warnings.join('\n'), /ui\/weather: a tool UI already has the name "weather"; skipped/);
  t.equal(scan.items.find((item) => item.name === 'dash')?.ui.prefersBorder, false);
  const fromWalk = scanUiResources(options, walkTree(options.toolsDir));
  t.same(fromWalk, scan, 'the registry, which hands over its walk of tools/, finds the same');
  const walkWithoutUi = { files: [], dirs: [join(options.toolsDir, 'weather')] };
  t.same(
    scanUiResources(options, walkWithoutUi).items.map((item) => [item.name, item.source]),
    [
      ['dash', 'standalone'],
      ['weather', 'standalone'],
    ],
    'with a walk, only the ui/ directories it saw are tool UIs',
  );
});

t.test('tools: a ui/ gives _meta.ui; explicit values win; the deprecated key moves', async (t) => {
  const { root, options } = project(t);
  write(join(root, 'tools/weather/ui/index.html'), '<html></html>');
  const tool = (extra: Partial<ToolDefinition> = {}): ToolDefinition => ({
    name: 'get-weather',
    description: '',
    path: 'weather/tool.sh',
    inputSchema: { type: 'object' },
    timeoutSecs: null,
    ...extra,
  });
  t.same(
    withInferredUi(tool(), options)._meta,
    {
      ui: { resourceUri: 'ui://srv/weather', visibility: ['model', 'app'] },
    },
    'the URI names the directory, not the tool',
  );
  t.same(withInferredUi(tool({ _meta: { ui: { visibility: ['app'] }, x: 1 } }), options)._meta, {
    x: 1,
    ui: { resourceUri: 'ui://srv/weather', visibility: ['app'] },
  });
  t.same(withInferredUi(tool({ _meta: { ui: { resourceUri: 'ui://srv/custom' } } }), options)._meta?.ui, {
    resourceUri: 'ui://srv/custom',
    visibility: ['model', 'app'],
  });
  t.equal(withInferredUi(tool({ path: 'other/tool.sh' }), options)._meta, undefined, 'no ui/, no _meta');
  const walked = new Set(toolsWithUiDir(options.toolsDir, walkTree(options.toolsDir)));
  t.same([...walked], ['weather'], 'the walk names the tool directories with a ui/');
  t.match(
    withInferredUi(tool(), options, walked)._meta,
    { ui: { resourceUri: 'ui://srv/weather' } },
    'a walk that saw ui/',
  );
  t.equal(withInferredUi(tool(), options, new Set())._meta, undefined, 'a walk that saw no ui/ asks no further');
  t.same(normalizeUiMeta({ 'ui/resourceUri': 'ui://s/r', other: 'v' }), {
    other: 'v',
    ui: { resourceUri: 'ui://s/r' },
  });
  t.same(normalizeUiMeta({ 'ui/resourceUri': 'ui://old', ui: { resourceUri: 'ui://new' } }), {
    ui: { resourceUri: 'ui://new' },
  });
  const plain = { ui: { resourceUri: 'ui://s/r' } };
  t.equal(normalizeUiMeta(plain), plain, 'nothing to move: the same object');
  t.equal(isVisibleToModel({ _meta: { ui: { visibility: ['app'] } } }), false);
  t.equal(isVisibleToModel({ _meta: { ui: { visibility: ['model'] } } }), true);
  t.equal(isVisibleToModel({}), true);
});

t.test('reading: the entrypoint inside its directory, else the template; capped', async (t) => {
  const { root, layout, options } = project(t);
  write(join(root, 'tools/weather/ui/index.html'), '<html>weather</html>');
  write(join(root, 'ui/board/ui.meta.json'), '{"template":"kanban","config":{"title":"Sprint <1>"}}');
  write(join(root, 'ui/both/ui.meta.json'), '{"template":"kanban","entrypoint":"page.html"}');
  write(join(root, 'ui/both/page.html'), '<html>static wins</html>');
  write(join(root, 'secret.txt'), 'secret');
  mkdirSync(join(root, 'ui/link'), { recursive: true });
  symlinkSync(join(root, 'secret.txt'), join(root, 'ui/link/index.html'));
  const items = scanUiResources(options).items;
  const item = (name: string) => items.find((candidate) => candidate.name === name) as (typeof items)[number];
  const weather = readUiResource(item('weather'), 'ui://srv/weather', layout, 1024);
  t.match(weather.contents, {
    uri: 'ui://srv/weather',
    mimeType: 'text/html;profile=mcp-app',
    text: '<html>weather</html>',
    _meta: { ui: { prefersBorder: true, csp: { connectDomains: [] } } },
  });
  const board = readUiResource(item('board'), 'ui://board', layout, 1024 * 1024).contents as { text: string };
  t.match(board.text, /^<!DOCTYPE html>/);
  t.match(board.text, /<h2>Sprint &lt;1&gt;<\/h2>/, 'the config is escaped in the page');
  t.match((readUiResource(item('both'), 'u', layout, 1024).contents as { text: string }).text, 'static wins');
  t.throws(
    () => readUiResource(item('link'), 'u', layout, 1024),
    { kind: 'failed', message: 'Resource outside allowed roots' },
    'a symlink out of the directory',
  );
  t.throws(
    () => readUiResource(item('weather'), 'u', layout, 10),
    { kind: 'failed', message: 'UI resource exceeded MCPBASH_MAX_UI_RESOURCE_BYTES (10 bytes)' },
    'a file over the cap',
  );
  t.throws(
    () => readUiResource(item('board'), 'u', layout, 100),
    { kind: 'failed', message: /exceeded MCPBASH_MAX_UI_RESOURCE_BYTES/ },
    'a generated page over the cap',
  );
  writeFileSync(join(root, 'tools/weather/ui/index.html'), Buffer.from([0xff, 0xfe, 0x3c]));
  t.match(
    readUiResource(item('weather'), 'u', layout, 1024).contents,
    { blob: Buffer.from([0xff, 0xfe, 0x3c]).toString('base64') },
    'bytes that are not UTF-8 travel as a blob',
  );
});
