import t from 'tap';
import { toWireError } from '../../../src/mcp/wire-errors.js';
import { providerForUri } from '../../../src/project/resources/provider-names.js';
import {
  normalizeResource,
  normalizeTemplate,
  type ResourceTemplateDefinition,
} from '../../../src/project/resources/resource-definition.js';
import { assembleTemplates, dedupeResources } from '../../../src/project/resources/resource-discovery.js';
import { compileTemplate, matchTemplate } from '../../../src/project/resources/template-match.js';
import { providerFailure as failure } from '../../../src/providers/provider-errors.js';
import { resolveProviderScript } from '../../../src/providers/provider-scripts.js';

const template = (
  name: string,
  uriTemplate: string,
  extra: Partial<ResourceTemplateDefinition> = {},
): ResourceTemplateDefinition => ({ name, uriTemplate, ...extra });

t.test('the provider of a URI comes from its scheme; other schemes name their provider', async (t) => {
  t.equal(providerForUri('file:///tmp/x.txt'), 'file');
  t.equal(providerForUri('https://example.com/a'), 'https');
  t.equal(providerForUri('git+https://example.com/r.git#main:README.md'), 'git');
  t.equal(providerForUri('ECHO://hi'), 'echo');
  t.equal(providerForUri('myapi://status'), 'myapi');
  t.equal(providerForUri('./relative/path.txt'), 'file', 'no scheme: file');
});

t.test('provider names are file names, never paths', async (t) => {
  const dirs = { project: '/nonexistent-a', framework: '/nonexistent-b' };
  for (const name of ['../etc/passwd', 'a/b', '..', '', '.hidden'])
    t.equal(resolveProviderScript(name, dirs), undefined, name);
});

t.test('provider exit codes map to JSON-RPC errors', async (t) => {
  const context = { provider: 'p', uri: 'p://x' };
  const providerFailure = (...args: Parameters<typeof failure>) => toWireError(failure(...args));
  t.match(providerFailure(2, 'why', context), {
    code: -32603,
    message: 'Resource outside allowed roots',
    data: { detail: 'why', exitCode: 2 },
  });
  t.match(providerFailure(3, '', context), { code: -32002, message: 'Resource not found' });
  t.match(providerFailure(4, '', context), { code: -32602, message: 'Invalid resource specification' });
  t.match(providerFailure(4, 'bad uri\n', context), { code: -32602, message: 'bad uri' });
  t.match(providerFailure(5, '', context), { code: -32603, message: 'Resource fetch failed' });
  t.match(providerFailure(6, '', context), { code: -32603, message: 'Resource exceeded size limit' });
  t.match(providerFailure(7, 'redirect:https://x/y', context), { code: -32603, message: 'redirect:https://x/y' });
  t.match(providerFailure(1, '', context), { code: -32603, message: 'Resource provider failed' });
});

t.test('resource metadata is normalised: defaults, provider from the scheme, MIME from the extension', async (t) => {
  const base = { iconBase: '/tmp', owner: 'x' };
  t.same(
    normalizeResource({}, { ...base, defaultName: 'notes', path: 'notes.md', defaultUri: 'file:///r/notes.md' }).item,
    {
      name: 'notes',
      description: '',
      uri: 'file:///r/notes.md',
      provider: 'file',
      path: 'notes.md',
      mimeType: 'text/markdown',
    },
  );
  t.match(normalizeResource({ name: 'a', uri: 'myapi://x', provider: '../x' }, base).error, /not a provider name/);
  t.match(
    normalizeResource({ name: 'a', uri: 'x://a', uriTemplate: 'x://{a}' }, base).error,
    /both uri and uriTemplate/,
  );
  t.match(normalizeResource({ uri: 'x://a' }, base).error, /needs a "name"/);
  const annotated = normalizeResource(
    { name: 'a', uri: 'x://a', annotations: { audience: ['user', 'model'], priority: 2, lastModified: 'today' } },
    base,
  );
  t.same(annotated.item?.annotations, { audience: ['user'], lastModified: 'today' });
  t.equal(annotated.warnings.length, 2, 'bad audience entries and priority are reported');
});

t.test('templates need a name and at least one {variable}', async (t) => {
  const base = { iconBase: '/tmp', owner: 'x' };
  t.match(normalizeTemplate({ name: 't', uriTemplate: 'file:///static' }, base).error, /at least one \{variable\}/);
  t.match(normalizeTemplate({ uriTemplate: 'file:///{p}' }, base).error, /needs a "name"/);
  t.same(normalizeTemplate({ name: 't', uriTemplate: 'x://{id}', mimeType: 'text/csv' }, base).item, {
    name: 't',
    uriTemplate: 'x://{id}',
    mimeType: 'text/csv',
  });
});

t.test('manual templates override discovered ones; names of resources are refused', async (t) => {
  const warnings: string[] = [];
  const result = assembleTemplates(
    [template('b', 'x://{b}'), template('a', 'x://{a}', { description: 'auto' }), template('notes', 'n://{n}')],
    [template('a', 'y://{a}', { description: 'manual' })],
    new Set(['notes']),
    warnings,
  );
  t.same(
    result.map((item) => [item.name, item.description]),
    [
      ['a', 'manual'],
      ['b', undefined],
    ],
  );
  t.match(warnings, [/"notes" has the name of a resource/]);
});

t.test('of two manual templates with one name the first is kept, with a warning', async (t) => {
  const warnings: string[] = [];
  const result = assembleTemplates(
    [template('a', 'x://{a}', { description: 'auto' })],
    [template('a', 'y://{a}', { description: 'first' }), template('a', 'z://{a}', { description: 'second' })],
    new Set(),
    warnings,
  );
  t.same(
    result.map((item) => [item.name, item.description]),
    [['a', 'first']],
  );
  t.match(warnings, [/manual resource template name "a" is registered twice; the first is kept/]);
});

t.test('duplicate resource names keep the first (by path) with a warning', async (t) => {
  const warnings: string[] = [];
  const items = dedupeResources(
    [
      { name: 'x', description: '', uri: 'file:///b', provider: 'file', path: 'b.txt' },
      { name: 'x', description: '', uri: 'file:///a', provider: 'file', path: 'a.txt' },
    ],
    warnings,
  );
  t.same(
    items.map((item) => item.path),
    ['a.txt'],
  );
  t.match(warnings, [/b\.txt: resource name "x" is already used by a\.txt/]);
});

t.test('URIs are matched back to templates (RFC 6570 subset)', async (t) => {
  const templates = [
    template('files', 'file:///{+path}'),
    template('logs', 'file:///var/log/{service}/{date}.log'),
    template('item', 'myapi://items/{id}'),
  ];
  t.equal(matchTemplate('file:///var/log/web/2025-01-01.log', templates)?.name, 'logs', 'more literal characters win');
  t.equal(matchTemplate('file:///var/log/a/b/c.log', templates)?.name, 'files', '{service} does not span "/"');
  t.equal(matchTemplate('myapi://items/42', templates)?.name, 'item');
  t.equal(matchTemplate('myapi://items/4/2', templates), undefined);
  t.equal(matchTemplate('other://x', templates), undefined);
  t.equal(compileTemplate('x://{a}{b}'), undefined, 'adjacent expressions are not matchable');
  t.equal(compileTemplate('x://{?q}'), undefined, 'other operators are not matchable');
  t.ok(compileTemplate('x://page{#frag}')?.pattern.test('x://page#top'));
});
