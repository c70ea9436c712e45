import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import t from 'tap';
import { createStateDir, removeStateDir } from '../../../src/project/state-dir.js';

t.test('a state dir the process created is removed at the end', async (t) => {
  const named = join(t.testdir(), 'new-state');
  const dir = createStateDir({ stateDir: named, tmpRoot: undefined });
  t.equal(dir, named);
  writeFileSync(join(dir, 'scratch'), 'x');
  removeStateDir(dir);
  t.notOk(existsSync(named), 'gone, with what the server wrote in it');
});

t.test('a directory MCPBASH_STATE_DIR names that already existed is left with its files (D264)', async (t) => {
  const named = t.testdir({ 'NOTES.md': 'keep me', tools: { 'a.sh': 'echo' } });
  const dir = createStateDir({ stateDir: named, tmpRoot: undefined });
  mkdirSync(join(dir, 'calls'), { recursive: true });
  removeStateDir(dir);
  t.equal(readFileSync(join(named, 'NOTES.md'), 'utf8'), 'keep me');
  t.ok(existsSync(join(named, 'tools', 'a.sh')));
});

t.test('the default state dir (under TMPDIR) is created and removed', async (t) => {
  const dir = createStateDir({ stateDir: undefined, tmpRoot: t.testdir() });
  t.ok(existsSync(dir));
  removeStateDir(dir);
  t.notOk(existsSync(dir));
});
