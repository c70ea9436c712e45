import { chmodSync, mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import t, { type Test } from 'tap';
import { collectProjectFiles, includeProblems } from '../../../../src/distribution/bundle/project-files.js';

function project(t: Test) {
  const dir = t.testdir({
    outside: { 'secret.txt': 'do not ship' },
    p: {
      tools: { hello: { 'tool.sh': '#!/usr/bin/env bash\necho hi\n', 'tool.meta.json': '{}', '.DS_Store': 'x' } },
      resources: { 'a.txt': 'a' },
      prompts: { 'p.txt': 'p' },
      completions: { 'c.sh': 'echo c' },
      'server.d': { 'server.meta.json': '{"name":"p"}' },
      lib: { 'util.sh': 'f() { :; }' },
      providers: { 'x.sh': '#!/bin/sh\n' },
      ui: { 'index.html': '<p>ui</p>' },
      VERSION: '1.0.0\n',
      '.registry': { 'tools.json': '{}' },
      '.git': { HEAD: 'ref' },
      config: { 'settings.json': '{}', nested: { 'deep.json': '{}' } },
      data: { 'd.txt': 'd' },
      notes: 'not bundled',
      'top.txt': 'a file to include',
    },
  });
  const root = join(dir, 'p');
  chmodSync(join(root, 'completions', 'c.sh'), 0o775);
  return { dir, root };
}

t.test('the default directories (ui/ too: D15) and VERSION, nothing else', async (t) => {
  const { root } = project(t);
  const collected = collectProjectFiles(root, []);
  t.same(
    collected.entries.map((entry) => [entry.path, entry.mode.toString(8)]).sort(),
    [
      ['server/VERSION', '644'],
      ['server/completions/c.sh', '755'],
      ['server/lib/util.sh', '644'],
      ['server/prompts/p.txt', '644'],
      ['server/providers/x.sh', '755'],
      ['server/resources/a.txt', '644'],
      ['server/server.d/server.meta.json', '644'],
      ['server/tools/hello/tool.meta.json', '644'],
      ['server/tools/hello/tool.sh', '755'],
      ['server/ui/index.html', '644'],
    ],
    'modes normalised: 0755 with an x bit or a shebang, else 0644 (group write dropped)',
  );
  t.same(collected.warnings, []);
});

t.test('MCPB_INCLUDE adds directories and files; overlapping entries once', async (t) => {
  const { root } = project(t);
  const paths = collectProjectFiles(root, ['config', 'config/nested', 'top.txt', 'data/d.txt']).entries.map(
    (e) => e.path,
  );
  t.ok(paths.includes('server/config/settings.json') && paths.includes('server/config/nested/deep.json'));
  t.ok(paths.includes('server/top.txt') && paths.includes('server/data/d.txt'));
  t.equal(new Set(paths).size, paths.length, 'no path twice');
  t.notOk(paths.includes('server/notes'), 'only what is listed');
});

t.test('MCPB_INCLUDE rejections, each named', async (t) => {
  const { dir, root } = project(t);
  symlinkSync(join(dir, 'outside'), join(root, 'escape'));
  const cases: Array<[string, RegExp]> = [
    ['/etc', /\/etc: an absolute path/],
    ['./config', /\.\/config: starts with \.\/ or \.\.\//],
    ['../outside', /\.\.\/outside: starts with \.\/ or \.\.\//],
    ['config/../../outside', /config\/\.\.\/\.\.\/outside: path traversal is not allowed/],
    ['tools', /tools: tools is bundled already/],
    ['server.d/extra', /server\.d is bundled already/],
    ['.registry', /\.registry is bundled already/],
    ['missing', /missing: not found in the project/],
    ['escape', /escape: leads out of the project/],
  ];
  for (const [item, message] of cases) {
    t.match(includeProblems(root, [item]), [message], item);
    t.throws(() => collectProjectFiles(root, [item]), { message: /^MCPB_INCLUDE is not valid:/, exitCode: 1 });
  }
  t.same(includeProblems(root, ['config', 'top.txt']), []);
});

t.test('symlinks are followed inside the project only; editor litter and .git stay out', async (t) => {
  const { dir, root } = project(t);
  symlinkSync(join(dir, 'outside', 'secret.txt'), join(root, 'resources', 'leak.txt'));
  symlinkSync(join(root, 'data', 'd.txt'), join(root, 'resources', 'linked.txt'));
  symlinkSync(join(root, 'nowhere'), join(root, 'resources', 'broken.txt'));
  symlinkSync(join(root, 'tools'), join(root, 'tools', 'loop'));
  writeFileSync(join(root, 'resources', 'Thumbs.db'), 'x');
  const collected = collectProjectFiles(root, []);
  const paths = collected.entries.map((entry) => entry.path);
  t.ok(paths.includes('server/resources/linked.txt'), 'a link within the project is followed');
  t.notOk(paths.includes('server/resources/leak.txt'), 'a link out of it is not');
  t.notOk(paths.some((path) => path.includes('.DS_Store') || path.includes('Thumbs.db') || path.includes('.git')));
  t.notOk(
    paths.some((path) => path.includes('/loop/')),
    'a directory link loop is walked once',
  );
  t.same(collected.warnings.sort(), [
    'resources/broken.txt: a broken symlink; left out',
    'resources/leak.txt: a symlink out of the project; left out',
    'tools/loop: a symlink to a folder it is inside of (a loop); left out',
  ]);
});

t.test('two symlinks to one folder: both are bundled, each under its own path', async (t) => {
  const { root } = project(t);
  symlinkSync('../config', join(root, 'lib', 'common'));
  symlinkSync('../../config', join(root, 'tools', 'hello', 'shared'));
  const collected = collectProjectFiles(root, []);
  const paths = collected.entries.map((entry) => entry.path);
  t.ok(paths.includes('server/lib/common/settings.json'), 'the first link');
  t.ok(paths.includes('server/tools/hello/shared/settings.json'), 'the second link');
  t.ok(paths.includes('server/tools/hello/shared/nested/deep.json'));
  t.same(collected.warnings, []);
});

t.test('.env files, keys, logs, bundles and .mcpbignore patterns are left out, each with its reason', async (t) => {
  const { root } = project(t);
  writeFileSync(join(root, 'tools', 'hello', '.env'), 'SECRET=x\n');
  writeFileSync(join(root, 'tools', 'hello', 'id_rsa'), 'key');
  writeFileSync(join(root, 'tools', 'hello', 'run.log'), 'log');
  writeFileSync(join(root, 'tools', 'hello', 'hello-0.1.0.mcpb'), 'PK');
  mkdirSync(join(root, 'tools', 'hello', 'fixtures'));
  writeFileSync(join(root, 'tools', 'hello', 'fixtures', 'big.bin'), 'x');
  writeFileSync(join(root, '.mcpbignore'), '# test data\nfixtures/\n');
  const collected = collectProjectFiles(root, []);
  const paths = collected.entries.map((entry) => entry.path);
  t.ok(paths.includes('server/tools/hello/tool.sh'));
  t.notOk(
    paths.some((path) => /\.env|id_rsa|\.log|\.mcpb|fixtures/.test(path)),
    paths.join(' '),
  );
  t.same(
    collected.leftOut.sort((a, b) => (a.path < b.path ? -1 : 1)),
    [
      { path: 'tools/hello/.env', reason: 'matches .env* (the default exclusions)' },
      { path: 'tools/hello/fixtures', reason: 'matches fixtures/ (.mcpbignore line 2)' },
      { path: 'tools/hello/hello-0.1.0.mcpb', reason: 'matches *.mcpb (the default exclusions)' },
      { path: 'tools/hello/id_rsa', reason: 'matches id_rsa (the default exclusions)' },
      { path: 'tools/hello/run.log', reason: 'matches *.log (the default exclusions)' },
    ],
  );
});

t.test('the bundle being written is never bundled, whatever .mcpbignore says', async (t) => {
  const { root } = project(t);
  writeFileSync(join(root, '.mcpbignore'), '!*.mcpb\n');
  writeFileSync(join(root, 'tools', 'hello', 'p-1.0.0.mcpb'), 'PK');
  writeFileSync(join(root, 'tools', 'hello', 'p-0.9.0.mcpb'), 'PK');
  const collected = collectProjectFiles(root, [], [join(root, 'tools', 'hello', 'p-1.0.0.mcpb')]);
  const paths = collected.entries.map((entry) => entry.path);
  t.notOk(paths.includes('server/tools/hello/p-1.0.0.mcpb'));
  t.ok(paths.includes('server/tools/hello/p-0.9.0.mcpb'), 'taken back by !*.mcpb');
  t.same(collected.leftOut, [{ path: 'tools/hello/p-1.0.0.mcpb', reason: 'the bundle being written' }]);
});

t.test('a file name that is not UTF-8 is said to be one', { skip: process.platform !== 'linux' }, async (t) => {
  const { root } = project(t);
  const name = Buffer.concat([Buffer.from(join(root, 'resources', 'bad')), Buffer.from([0xff, 0x2e, 0x74])]);
  writeFileSync(name, 'x');
  const collected = collectProjectFiles(root, []);
  t.same(collected.warnings, [
    'resources/bad\\xff.t: a file name that is not valid UTF-8 (bundles need UTF-8 names); left out',
  ]);
});
