import { chmodSync, mkdirSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import t from 'tap';
import { walkTree } from '../../../src/project/discovery-files.js';
import { sameTurnWalker, TreeSnapshot } from '../../../src/project/registry/fingerprint.js';

const nextTurn = () => new Promise<void>((resolve) => setImmediate(resolve));

t.test('walkTree: paths as join() would spell them, whatever the root looks like', async (t) => {
  const root = t.testdir({ tools: { a: { 'tool.sh': '#!/bin/sh\n' }, '.hidden': { 'x.sh': '' } } });
  for (const spelling of [join(root, 'tools'), `${root}/tools/`, `${root}/./tools/../tools`]) {
    const walk = walkTree(spelling);
    t.same(walk?.dirs, [join(root, 'tools', 'a')], spelling);
    t.same(
      walk?.files.map((file) => file.path),
      [join(root, 'tools', 'a', 'tool.sh')],
      spelling,
    );
  }
});

t.test('sameTurnWalker: one walk per directory within a turn, a fresh one after it', async (t) => {
  const root = t.testdir({ tools: { a: { 'tool.sh': '#!/bin/sh\n' } } });
  const tools = join(root, 'tools');
  const walk = sameTurnWalker();
  const first = walk(tools);
  // Two registries that watch tools/ and check in the same turn share the walk.
  const tree = new TreeSnapshot([tools], walk);
  t.equal(tree.walkOf(tools), first, 'the same walk, not a second one');
  mkdirSync(join(tools, 'b'));
  writeFileSync(join(tools, 'b', 'tool.sh'), '#!/bin/sh\n');
  t.equal(walk(tools)?.files.length, 1, 'within the turn: the walk already taken');
  await nextTurn();
  t.equal(walk(tools)?.files.length, 2, 'next turn: the disk as it is now');
  t.equal(
    new TreeSnapshot([tools], walk).fingerprint(),
    new TreeSnapshot([tools]).fingerprint(),
    'a shared walk gives the fingerprint a fresh walk gives',
  );
});

t.test('TreeSnapshot.fingerprint: what changes it, and what does not', async (t) => {
  const root = t.testdir({ tools: { a: { 'tool.sh': '#!/bin/sh\n' } }, 'register.json': '{}' });
  const tools = join(root, 'tools');
  const script = join(tools, 'a', 'tool.sh');
  const watched = [tools, join(root, 'register.json'), join(root, 'missing.json')];
  const fingerprint = () => new TreeSnapshot(watched).fingerprint();
  let last = fingerprint();
  t.equal(fingerprint(), last, 'nothing changed: the same fingerprint');
  const changes: Array<[string, () => void]> = [
    ['a file grows', () => writeFileSync(script, '#!/bin/sh\necho hi\n')],
    ['a file becomes executable', () => chmodSync(script, 0o755)],
    ['a file is touched', () => utimesSync(script, new Date(2001, 0, 1), new Date(2001, 0, 1))],
    ['a file is added', () => writeFileSync(join(tools, 'a', 'tool.meta.json'), '{}')],
    ['an empty directory is added', () => mkdirSync(join(tools, 'b'))],
    ['a watched plain file changes', () => writeFileSync(join(root, 'register.json'), '{"tools":[]}')],
    ['a missing watched file appears', () => writeFileSync(join(root, 'missing.json'), '{}')],
  ];
  for (const [what, change] of changes) {
    change();
    const now = fingerprint();
    t.not(now, last, what);
    last = now;
  }
});
