import { mkdirSync, writeFileSync } from 'node:fs';
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
