import * as fs from 'node:fs';
import { existsSync, lstatSync, readdirSync, readFileSync, statSync, symlinkSync } from 'node:fs';
import { join } from 'node:path';
import t from 'tap';
import { rewriteFileAtomic, writeFileAtomic } from '../../../src/fs/atomic-write.js';

t.test('a new file appears whole with its exact mode, and never replaces an existing one', async (t) => {
  const dir = t.testdir();
  const path = join(dir, 'tool.sh');
  writeFileAtomic(path, 'echo hi\n', { mode: 0o755, replace: false });
  t.equal(readFileSync(path, 'utf8'), 'echo hi\n');
  t.equal(statSync(path).mode & 0o777, 0o755);
  t.throws(() => writeFileAtomic(path, 'other', { mode: 0o644, replace: false }), { code: 'EEXIST' });
  t.equal(readFileSync(path, 'utf8'), 'echo hi\n');
  symlinkSync(join(dir, 'elsewhere'), join(dir, 'dangling'));
  t.throws(() => writeFileAtomic(join(dir, 'dangling'), 'x', { mode: 0o644, replace: false }), { code: 'EEXIST' });
  t.notOk(existsSync(join(dir, 'elsewhere')), 'a dangling link is not written through');
  t.same(readdirSync(dir).sort(), ['dangling', 'tool.sh'], 'no temp files left');
});

t.test('rewriting keeps the mode, and the link stays a link when the real file is given', async (t) => {
  const dir = t.testdir({ 'real.json': '{}' });
  fs.chmodSync(join(dir, 'real.json'), 0o640);
  symlinkSync('real.json', join(dir, 'link.json'));
  rewriteFileAtomic(join(dir, 'real.json'), '{"a":1}');
  t.equal(readFileSync(join(dir, 'link.json'), 'utf8'), '{"a":1}');
  t.equal(statSync(join(dir, 'real.json')).mode & 0o777, 0o640);
  t.ok(lstatSync(join(dir, 'link.json')).isSymbolicLink());
});

t.test('a write that fails part-way (ENOSPC) leaves neither the file nor a temp file', async (t) => {
  const dir = t.testdir({ 'existing.txt': 'old content' });
  const { writeFileAtomic: failing } = await t.mockImport<typeof import('../../../src/fs/atomic-write.js')>(
    '../../../src/fs/atomic-write.js',
    {
      'node:fs': {
        ...fs,
        writeFileSync: (path: string, data: string, options: fs.WriteFileOptions) => {
          // Half the bytes reach the disk, then it is full.
          fs.writeFileSync(path, data.slice(0, data.length / 2), options);
          throw Object.assign(new Error(`ENOSPC: no space left on device, write`), {
            code: 'ENOSPC',
            syscall: 'write',
          });
        },
      },
    },
  );
  t.throws(() => failing(join(dir, 'new.txt'), 'complete content', { mode: 0o644, replace: false }), {
    code: 'ENOSPC',
  });
  t.throws(() => failing(join(dir, 'existing.txt'), 'new content', { mode: 0o644, replace: true }), {
    code: 'ENOSPC',
  });
  t.same(readdirSync(dir), ['existing.txt'], 'no new file, no temp file');
  t.equal(readFileSync(join(dir, 'existing.txt'), 'utf8'), 'old content', 'the old content is intact');
});
