import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { unzipSync } from 'fflate';
import t from 'tap';
import { type ArchiveEntry, writeTarGz, writeZip } from '../../../release/archive.mjs';

const mtime = new Date(1_700_000_000 * 1000);
const entries = (dir: string): ArchiveEntry[] => [
  { path: 'pkg-1/tool', mode: 0o755, content: Buffer.from('#!/bin/sh\necho tool\n') },
  { path: 'pkg-1/LICENSE', mode: 0o644, source: join(dir, 'license-source') },
  { path: 'pkg-1/README.md', mode: 0o644, content: Buffer.from('# readme\n') },
];
const sha = (path: string) => createHash('sha256').update(readFileSync(path)).digest('hex');

t.test('tar.gz: sorted entries, one mtime, no owners, a gzip header without name or time', async (t) => {
  const dir = t.testdir({ 'license-source': 'MIT\n' });
  writeTarGz(join(dir, 'a.tar.gz'), entries(dir), mtime);
  // Other insertion order and umask-independent modes: the same bytes.
  writeTarGz(join(dir, 'b.tar.gz'), entries(dir).reverse(), mtime);
  t.equal(sha(join(dir, 'a.tar.gz')), sha(join(dir, 'b.tar.gz')), 'reproducible');
  const gz = readFileSync(join(dir, 'a.tar.gz'));
  t.equal(gz.readUInt32LE(4), 0, 'no time in the gzip header');
  t.equal(gz[3], 0, 'no flags: no file name');
  t.equal(gz[9], 3, 'the OS byte is fixed (unix)');
  const list = spawnSync('tar', ['-tvzf', join(dir, 'a.tar.gz'), '--numeric-owner', '--full-time'], {
    encoding: 'utf8',
  });
  const lines = list.stdout.trim().split('\n');
  t.same(
    lines.map((line) => line.split(/\s+/).at(-1)),
    ['pkg-1/', 'pkg-1/LICENSE', 'pkg-1/README.md', 'pkg-1/tool'],
    'the directory, then files in sorted order',
  );
  t.match(lines[3], /^-rwxr-xr-x 0\/0 .* 2023-11-14 22:13:20 pkg-1\/tool$/, 'modes kept, owner 0/0, the fixed time');
  t.match(lines[1], /^-rw-r--r-- 0\/0 /);
  const out = join(dir, 'out');
  mkdirSync(out);
  spawnSync('tar', ['-xzf', join(dir, 'a.tar.gz'), '-C', out]);
  t.equal(readFileSync(join(out, 'pkg-1', 'LICENSE'), 'utf8'), 'MIT\n', 'a source file is copied in');
  t.equal(statSync(join(out, 'pkg-1', 'tool')).mode & 0o777, 0o755);
});

t.test('zip: sorted entries with unix modes and one UTC time, reproducible', async (t) => {
  const dir = t.testdir({ 'license-source': 'MIT\n' });
  writeZip(join(dir, 'a.zip'), entries(dir), mtime);
  writeZip(join(dir, 'b.zip'), entries(dir).reverse(), mtime);
  t.equal(sha(join(dir, 'a.zip')), sha(join(dir, 'b.zip')), 'reproducible');
  const files = unzipSync(readFileSync(join(dir, 'a.zip')));
  t.same(Object.keys(files), ['pkg-1/LICENSE', 'pkg-1/README.md', 'pkg-1/tool']);
  t.equal(Buffer.from(files['pkg-1/tool'] ?? []).toString(), '#!/bin/sh\necho tool\n');
  const listing = spawnSync('unzip', ['-Z', '-T', join(dir, 'a.zip')], {
    encoding: 'utf8',
    env: { ...process.env, TZ: 'UTC' },
  });
  if (listing.error) {
    t.comment('unzip is not installed: modes and times not listed');
    return;
  }
  t.match(listing.stdout, /-rwxr-xr-x .* 20231114\.221320 pkg-1\/tool/, 'mode 0755 and the UTC time');
});
