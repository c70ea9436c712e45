import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import t from 'tap';
import { replaceFile } from '../../../release/replace-file.mjs';

t.test('the target keeps its old content until the new file is complete, then gets it in one step', async (t) => {
  const dir = t.testdir({ 'mcp-bash': 'old binary' });
  const target = join(dir, 'mcp-bash');
  replaceFile(target, (temp) => {
    t.equal(readFileSync(target, 'utf8'), 'old binary', 'still the old file while the new one is written');
    t.equal(dirname(temp), dir, 'the temp file is beside it (one file system: the rename is atomic)');
    writeFileSync(temp, 'half');
    t.equal(readFileSync(target, 'utf8'), 'old binary', 'a half-written file is not the target');
    writeFileSync(temp, 'new binary');
  });
  t.equal(readFileSync(target, 'utf8'), 'new binary');
  t.same(readdirSync(dir), ['mcp-bash'], 'no temp file is left');
});

t.test('a failed or empty write leaves the target as it was and no temp file', async (t) => {
  const dir = t.testdir({ 'mcp-bash.exe': 'old' });
  const target = join(dir, 'mcp-bash.exe');
  t.throws(
    () =>
      replaceFile(target, (temp) => {
        t.match(temp, /\.exe$/, 'the temp file keeps the extension');
        writeFileSync(temp, 'partial');
        throw new Error('pkg failed');
      }),
    /pkg failed/,
  );
  t.throws(() => replaceFile(target, () => {}), /nothing was written/);
  t.equal(readFileSync(target, 'utf8'), 'old');
  t.same(readdirSync(dir), ['mcp-bash.exe']);
  const fresh = join(dir, 'new-file');
  replaceFile(fresh, (temp) => writeFileSync(temp, 'x'));
  t.ok(existsSync(fresh), 'a target that did not exist yet is created');
});
