import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import t from 'tap';
import { writeTarGz, writeZip } from '../../../release/archive.mjs';
import { nodeBinaries } from '../../../release/node-binary.mjs';
import { archiveName, platformOf } from '../../../release/targets.mjs';
import { CliError } from '../../../src/cli/cli-error.js';
import { extractBinary } from '../../../src/distribution/upgrade/extract-binary.js';
import {
  checksumFor,
  releaseArchiveName,
  releaseDirectoryUrl,
} from '../../../src/distribution/upgrade/release-location.js';

t.test('doctor names release archives exactly as the release build does, for every target', async (t) => {
  for (const target of Object.keys(nodeBinaries.targets)) {
    const { os, arch } = platformOf(target);
    const platform = os === 'windows' ? 'win32' : os;
    t.equal(releaseArchiveName('2.1.0', platform, arch), archiveName('2.1.0', target), target);
  }
  t.equal(releaseArchiveName('2.1.0', 'freebsd', 'x64'), undefined);
  t.equal(releaseArchiveName('2.1.0', 'linux', 'ia32'), undefined);
});

t.test('the release URL: MCPBASH_RELEASE_BASE_URL with {version} replaced', async (t) => {
  t.equal(releaseDirectoryUrl('https://m.example/r/v{version}/', '2.1.0'), 'https://m.example/r/v2.1.0');
  // From source (no build), no default is known.
  t.throws(() => releaseDirectoryUrl(undefined, '2.1.0'), /set MCPBASH_RELEASE_BASE_URL/);
});

t.test('checksumFor reads sha256sum lines, text or binary mode, exact names only', async (t) => {
  const sums = [
    `${'a'.repeat(64)}  mcp-bash-2.1.0-linux-x64.tar.gz\n`,
    `${'B'.repeat(64)} *mcp-bash-2.1.0-windows-x64.zip\n`,
  ].join('');
  t.equal(checksumFor(sums, 'mcp-bash-2.1.0-linux-x64.tar.gz'), 'a'.repeat(64));
  t.equal(checksumFor(sums, 'mcp-bash-2.1.0-windows-x64.zip'), 'b'.repeat(64));
  t.equal(checksumFor(sums, 'mcp-bash-2.1.0-linux-x64.tar'), undefined);
});

t.test('extractBinary takes the binary from a release .tar.gz or .zip', async (t) => {
  const dir = t.testdir({});
  const script = Buffer.from('#!/bin/sh\necho "mcp-bash 9.0.0"\n');
  const entries = [
    { path: 'mcp-bash-9.0.0-x/README.md', mode: 0o644, content: Buffer.from('readme') },
    { path: 'mcp-bash-9.0.0-x/mcp-bash', mode: 0o755, content: script },
    { path: 'mcp-bash-9.0.0-x/mcp-bash.exe', mode: 0o755, content: Buffer.from('MZ') },
  ];
  writeTarGz(join(dir, 'a.tar.gz'), entries, new Date(0));
  writeZip(join(dir, 'a.zip'), entries, new Date(0));
  extractBinary(readFileSync(join(dir, 'a.tar.gz')), 'mcp-bash', join(dir, 'from-tar'));
  t.same(readFileSync(join(dir, 'from-tar')), script);
  t.equal(statSync(join(dir, 'from-tar')).mode & 0o777, 0o755);
  extractBinary(readFileSync(join(dir, 'a.zip')), 'mcp-bash.exe', join(dir, 'from-zip'));
  t.equal(readFileSync(join(dir, 'from-zip'), 'utf8'), 'MZ');
  t.same(
    readdirSync(dir).filter((name) => name.startsWith('.')),
    [],
    'no unpack dir left behind',
  );
});

t.test('extractBinary refuses archives without the binary, and what is not an archive', async (t) => {
  const dir = t.testdir({});
  writeTarGz(
    join(dir, 'other.tar.gz'),
    [{ path: 'x/deep/er/mcp-bash', mode: 0o755, content: Buffer.from('x') }],
    new Date(0),
  );
  t.throws(() => extractBinary(readFileSync(join(dir, 'other.tar.gz')), 'mcp-bash', join(dir, 'out')), CliError);
  t.throws(
    () => extractBinary(readFileSync(join(dir, 'other.tar.gz')), 'mcp-bash', join(dir, 'out')),
    /holds no mcp-bash/,
  );
  t.throws(
    () => extractBinary(Buffer.from('plain text'), 'mcp-bash', join(dir, 'out')),
    /neither a \.tar\.gz nor a \.zip/,
  );
  t.notOk(existsSync(join(dir, 'out')));
});
