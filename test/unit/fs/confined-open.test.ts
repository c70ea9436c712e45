import { spawn, spawnSync } from 'node:child_process';
import { closeSync, readFileSync, realpathSync, symlinkSync } from 'node:fs';
import { join } from 'node:path';
import t from 'tap';
import { openInsideRoots } from '../../../src/fs/confined-open.js';

function content(opened: ReturnType<typeof openInsideRoots>): string {
  if (typeof opened === 'string') return opened;
  try {
    return readFileSync(opened.fd, 'utf8');
  } finally {
    closeSync(opened.fd);
  }
}

t.test('opens regular files inside the roots; refuses the rest', async (t) => {
  const base = realpathSync(
    t.testdir({ root: { 'a.txt': 'inside', sub: { 'b.txt': 'deeper' } }, 'secret.txt': 'outside' }),
  );
  const root = join(base, 'root');
  symlinkSync(join(base, 'secret.txt'), join(root, 'out-link'));
  symlinkSync('a.txt', join(root, 'in-link'));
  t.equal(content(openInsideRoots(join(root, 'a.txt'), [root])), 'inside');
  t.equal(content(openInsideRoots(join(root, 'sub', '..', 'sub', 'b.txt'), [root])), 'deeper');
  t.equal(content(openInsideRoots(join(root, 'in-link'), [root])), 'inside', 'a link that stays inside is fine');
  t.equal(openInsideRoots(join(root, 'out-link'), [root]), 'outside');
  t.equal(openInsideRoots(join(base, 'secret.txt'), [root]), 'outside');
  t.equal(openInsideRoots(join(root, 'missing'), [root]), 'not-found');
  t.equal(openInsideRoots(join(root, 'sub'), [root]), 'not-regular');
  if (spawnSync('mkfifo', [join(root, 'fifo')]).status === 0) {
    t.equal(openInsideRoots(join(root, 'fifo'), [root]), 'not-regular', 'a FIFO is refused without blocking');
  }
});

t.test('a file swapped with a symlink to an outside file while opening is never opened', async (t) => {
  const base = realpathSync(t.testdir({ root: { 'x.txt': 'inside' }, 'secret.txt': 'OUTSIDE' }));
  const root = join(base, 'root');
  const script = `
    const fs = require('node:fs');
    const [path, outside] = process.argv.slice(1);
    for (let i = 0; ; i += 1) {
      fs.rmSync(path + '.swap', { force: true });
      if (i % 2) fs.symlinkSync(outside, path + '.swap'); else fs.writeFileSync(path + '.swap', 'inside');
      fs.renameSync(path + '.swap', path);
    }`;
  const writer = spawn(process.execPath, ['-e', script, join(root, 'x.txt'), join(base, 'secret.txt')], {
    stdio: 'ignore',
  });
  t.teardown(() => writer.kill('SIGKILL'));
  const counts: Record<string, number> = {};
  const deadline = Date.now() + 1500;
  while (Date.now() < deadline) {
    const got = content(openInsideRoots(join(root, 'x.txt'), [root]));
    counts[got] = (counts[got] ?? 0) + 1;
    if (got === 'OUTSIDE') break;
  }
  writer.kill('SIGKILL');
  t.notOk(counts.OUTSIDE, `never the outside file: ${JSON.stringify(counts)}`);
  t.ok((counts.inside ?? 0) > 0, 'the file itself is opened when it is there');
});
