import { createHash } from 'node:crypto';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import t from 'tap';
import { writeTarGz, writeZip } from '../../../../release/archive.mjs';
import { VERSION } from '../../../../src/build-info.js';
import { executableFormat } from '../../../../src/distribution/bundle/executable-format.js';
import { releaseBinaryIn } from '../../../../src/distribution/bundle/release-binaries.js';
import { binaryLaunch } from '../../../../src/distribution/bundle/server-launch.js';
import { fakeExecutable } from '../../../helpers/fake-executables.js';
import { scratchDir } from '../../../helpers/scratch.js';

const TARGETS = ['linux-x64', 'linux-arm64', 'darwin-x64', 'darwin-arm64', 'win-x64'];
const sha256 = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex');

/** A release directory as `npm run release` writes it: one archive per target and SHA256SUMS. */
function releaseDir(version = VERSION): string {
  const dir = scratchDir('mcpbash-release-');
  const sums: string[] = [];
  for (const target of TARGETS) {
    const [os, arch] = target.split('-');
    const root = `mcp-bash-${version}-${os === 'win' ? 'windows' : os}-${arch}`;
    const windows = os === 'win';
    const name = `${root}${windows ? '.zip' : '.tar.gz'}`;
    const entries = [
      { path: `${root}/${windows ? 'mcp-bash.exe' : 'mcp-bash'}`, mode: 0o755, content: fakeExecutable(target) },
      { path: `${root}/README.md`, mode: 0o644, content: Buffer.from('readme\n') },
    ];
    (windows ? writeZip : writeTarGz)(join(dir, name), entries, new Date(0));
    sums.push(`${sha256(readFileSync(join(dir, name)))}  ${name}`);
  }
  writeFileSync(join(dir, 'SHA256SUMS'), `${sums.join('\n')}\n`);
  return dir;
}

t.test('the magic bytes say the OS and CPU', async (t) => {
  const dir = t.testdir({ text: '#!/bin/sh\necho hi\n', empty: '' });
  for (const target of TARGETS) {
    writeFileSync(join(dir, target), fakeExecutable(target));
    t.equal(executableFormat(join(dir, target)).target, target);
  }
  t.equal(executableFormat(join(dir, 'text')).description, 'a text file');
  t.equal(executableFormat(join(dir, 'empty')).description, 'an empty file');
});

t.test('--binaries DIR reads the release as npm run release writes it', async (t) => {
  const dir = releaseDir();
  const launch = binaryLaunch({
    platforms: ['darwin', 'linux', 'win32'],
    self: undefined,
    binariesDir: dir,
    unpackDir: scratchDir('mcpbash-unpack-'),
    launcher: '#!/bin/sh\n',
  });
  t.same(launch.warnings, [], 'every target found');
  const binaries = launch.entries.filter((entry) => entry.path.startsWith('server/bin/'));
  t.same(binaries.map((entry) => entry.path).sort(), [
    'server/bin/mcp-bash-darwin-arm64',
    'server/bin/mcp-bash-darwin-x64',
    'server/bin/mcp-bash-linux-arm64',
    'server/bin/mcp-bash-linux-x64',
    'server/bin/mcp-bash-win-x64.exe',
  ]);
  for (const entry of binaries) {
    const target = (entry.path.match(/mcp-bash-(.+?)(\.exe)?$/) as RegExpMatchArray)[1] as string;
    t.same(readFileSync(entry.source as string), fakeExecutable(target), `${target}: the archive's binary`);
  }
});

t.test('an archive that does not match SHA256SUMS is refused', async (t) => {
  const dir = releaseDir();
  const name = `mcp-bash-${VERSION}-linux-arm64.tar.gz`;
  const bytes = readFileSync(join(dir, name));
  writeFileSync(join(dir, name), Buffer.concat([bytes, Buffer.from('x')]));
  t.throws(() => releaseBinaryIn(dir, 'linux-arm64', scratchDir('mcpbash-unpack-')), {
    message: /does not match its SHA-256/,
  });
});

t.test('a file that is not a binary of the target is refused', async (t) => {
  const dir = t.testdir({ 'mcp-bash-linux-arm64': 'l' });
  writeFileSync(join(dir, 'mcp-bash-darwin-arm64'), fakeExecutable('linux-arm64'));
  t.throws(() => releaseBinaryIn(dir, 'linux-arm64', scratchDir('mcpbash-unpack-')), {
    message: /mcp-bash-linux-arm64 is a text file, not an mcp-bash binary for linux-arm64/,
  });
  t.throws(() => releaseBinaryIn(dir, 'darwin-arm64', scratchDir('mcpbash-unpack-')), {
    message: /is an ELF \(Linux\) executable for arm64, not an mcp-bash binary for darwin-arm64/,
  });
});

t.test('several versions and none of ours: a clear error; one other version is used', async (t) => {
  const dir = releaseDir('1.0.0');
  t.ok(releaseBinaryIn(dir, 'linux-x64', scratchDir('mcpbash-unpack-')), 'the only version there');
  const two = releaseDir('1.0.0');
  const other = releaseDir('1.1.0');
  const name = 'mcp-bash-1.1.0-linux-x64.tar.gz';
  writeFileSync(join(two, name), readFileSync(join(other, name)));
  t.throws(() => releaseBinaryIn(two, 'linux-x64', scratchDir('mcpbash-unpack-')), { message: /several versions/ });
});
