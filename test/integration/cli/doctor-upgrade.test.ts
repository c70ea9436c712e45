import { createHash } from 'node:crypto';
import {
  copyFileSync,
  existsSync,
  linkSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { join } from 'node:path';
import t from 'tap';
import { writeTarGz } from '../../../release/archive.mjs';
import { releaseArchiveName } from '../../../src/distribution/upgrade/release-location.js';
import { hostRelease } from '../../helpers/host-release.js';
import { runCommand } from '../../helpers/installer-env.js';
import { binaryPath, repoRoot } from '../../helpers/paths.js';
import { isolatedEnv } from '../../helpers/run-binary.js';
import { scratchDir } from '../../helpers/scratch.js';
import { serveDirectory } from '../../helpers/static-server.js';

// doctor --fix replacing the binary it runs from: a copy of the built binary in a temp dir,
// upgraded from archives whose "binary" is a script answering --version (fast and exact),
// and once from the real release archive.
const native = !binaryPath.endsWith('.cjs') && process.platform !== 'win32';
const made: string[] = [];
t.teardown(() => {
  for (const dir of made) rmSync(dir, { recursive: true, force: true });
});

const sha256 = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex');

const run = runCommand;

/**
 * The built binary in a directory of its own, as an installed mcp-bash. A hard link (beside
 * dist/, so on the same filesystem) costs nothing, and is safe: doctor replaces the directory
 * entry by rename and never writes into the file.
 */
function installedCopy(): { dir: string; binary: string; env: NodeJS.ProcessEnv } {
  const dir = mkdtempSync(join(repoRoot, 'dist', '.test-upgrade-'));
  made.push(dir);
  const binary = join(dir, 'mcp-bash');
  try {
    linkSync(binaryPath, binary);
  } catch {
    copyFileSync(binaryPath, binary);
  }
  return { dir, binary, env: isolatedEnv({ MCPBASH_DOCTOR_LOCK_TIMEOUT_SECS: '2' }) };
}

/** A release archive (as the release build lays it out) whose binary is `script`. */
function fakeArchive(version: string, script: string): { path: string; sha256: string; name: string } {
  const dir = scratchDir('mcpbash-fake-release-');
  made.push(dir);
  const name = releaseArchiveName(version) as string;
  const top = name.replace(/\.tar\.gz$/, '');
  const path = join(dir, name);
  writeTarGz(path, [{ path: `${top}/mcp-bash`, mode: 0o755, content: Buffer.from(script) }], new Date(0));
  return { path, sha256: sha256(readFileSync(path)), name };
}

const answering = (version: string) => `#!/bin/sh\necho "mcp-bash ${version}"\n`;
const current = JSON.parse(readFileSync(join(repoRoot, 'package.json'), 'utf8')).version as string;
const hashOf = (path: string) => sha256(readFileSync(path));
let originalHash: string | undefined;
/** The hash of every fresh installedCopy (the built binary): 120 MiB, so hashed once. */
const installedHash = () => {
  originalHash ??= hashOf(binaryPath);
  return originalHash;
};

t.test(
  'doctor --fix upgrades',
  { skip: native ? false : 'needs the native binary (MCPBASH_TEST_BIN is the bundle)' },
  async (t) => {
    t.test('from a local archive: checked, replaced, and the old binary gone after the new one ran', async (t) => {
      const { dir, binary, env } = installedCopy();
      const archive = fakeArchive('9.1.0', answering('9.1.0'));
      const result = await run(
        binary,
        ['doctor', '--fix', '--json', '--archive', archive.path, '--verify', archive.sha256],
        env,
      );
      t.equal(result.code, 0, result.stderr);
      const report = JSON.parse(result.stdout);
      t.match(report.actionsTaken[0], {
        id: 'binary.upgrade',
        ok: true,
        message: `replaced ${binary}: mcp-bash ${current} -> 9.1.0`,
      });
      t.equal((await run(binary, ['--version'], env)).stdout.trim(), 'mcp-bash 9.1.0');
      t.same(readdirSync(dir), ['mcp-bash'], 'no backup, staging file or lock left');
    });

    t.test('MCPBASH_DOCTOR_KEEP_BACKUP keeps the previous binary', async (t) => {
      const { dir, binary, env } = installedCopy();
      const before = installedHash();
      const archive = fakeArchive('9.1.0', answering('9.1.0'));
      const result = await run(binary, ['doctor', '--fix', '--archive', archive.path, '--verify', archive.sha256], {
        ...env,
        MCPBASH_DOCTOR_KEEP_BACKUP: 'true',
      });
      t.equal(result.code, 0, 'doctor --fix succeeds');
      t.equal(hashOf(join(dir, 'mcp-bash.bak')), before);
    });

    t.test('a bad hash changes nothing (exit 1)', async (t) => {
      const { binary, env } = installedCopy();
      const before = installedHash();
      const archive = fakeArchive('9.1.0', answering('9.1.0'));
      const result = await run(binary, ['doctor', '--fix', '--archive', archive.path, '--verify', 'b'.repeat(64)], env);
      t.equal(result.code, 1);
      t.match(
        result.stdout,
        `checksum mismatch for ${archive.path}: expected ${'b'.repeat(64)}, got ${archive.sha256}; nothing was changed`,
      );
      t.match(result.stdout, /\n[1-9]\d* error\(s\)/, 'the failed upgrade counts as an error');
      t.equal(hashOf(binary), before);
    });

    t.test('an unreachable release server: the URL and the cause, counted as an error', async (t) => {
      const { binary, env } = installedCopy();
      // A port that was just listening and is closed now: the connection is refused.
      const server = await serveDirectory(scratchDir('mcpbash-empty-'));
      const base = `${server.url}/v{version}`;
      await server.close();
      const result = await run(binary, ['doctor', '--fix', '--version', '9.2.0', '--json'], {
        ...env,
        MCPBASH_RELEASE_BASE_URL: base,
      });
      t.equal(result.code, 1);
      const report = JSON.parse(result.stdout);
      t.equal(report.exitCode, 1);
      t.ok(report.errors >= 1, `errors: ${report.errors}`);
      t.match(
        report.actionsTaken[0].error,
        `cannot download ${server.url}/v9.2.0/SHA256SUMS: connection refused (ECONNREFUSED)`,
      );
    });

    t.test('a downgrade is refused (exit 3) unless --allow-downgrade', async (t) => {
      const { dir, binary, env } = installedCopy();
      const before = installedHash();
      const archive = fakeArchive('1.9.0', answering('1.9.0'));
      const args = ['doctor', '--fix', '--archive', archive.path, '--verify', archive.sha256];
      const refused = await run(binary, args, env);
      t.equal(refused.code, 3);
      t.match(
        refused.stdout,
        `holds mcp-bash 1.9.0, older than this ${current}; nothing was changed (pass --allow-downgrade`,
      );
      t.equal(hashOf(binary), before);
      t.same(readdirSync(dir), ['mcp-bash']);
      const allowed = await run(binary, [...args, '--allow-downgrade'], env);
      t.equal(allowed.code, 0, 'allowed');
      t.equal((await run(binary, ['--version'], env)).stdout.trim(), 'mcp-bash 1.9.0');
    });

    t.test('a new binary that does not run is never put in place (exit 1)', async (t) => {
      const { binary, env } = installedCopy();
      const before = installedHash();
      const archive = fakeArchive('9.1.0', '#!/bin/sh\necho "cannot execute binary file" >&2\nexit 126\n');
      const result = await run(binary, ['doctor', '--fix', '--archive', archive.path, '--verify', archive.sha256], env);
      t.equal(result.code, 1);
      t.match(result.stdout, /the new binary does not run here .*cannot execute binary file.*nothing was changed/);
      t.equal(hashOf(binary), before);
    });

    t.test('--min-version: an archive older than it is refused', async (t) => {
      const { binary, env } = installedCopy();
      const archive = fakeArchive('9.1.0', answering('9.1.0'));
      const args = ['doctor', '--fix', '--archive', archive.path, '--verify', archive.sha256, '--min-version', '9.2.0'];
      const result = await run(binary, args, env);
      t.equal(result.code, 1);
      t.match(result.stdout, /older than --min-version 9\.2\.0/);
    });

    t.test('--version V downloads release V and checks it against its SHA256SUMS', async (t) => {
      const { binary, env } = installedCopy();
      const archive = fakeArchive('9.2.0', answering('9.2.0'));
      const releaseDir = join(archive.path, '..');
      writeFileSync(join(releaseDir, 'SHA256SUMS'), `${archive.sha256}  ${archive.name}\n`);
      const server = await serveDirectory(releaseDir, {}, '/v9.2.0');
      t.teardown(() => server.close());
      const base = `${server.url.replace('/v9.2.0', '')}/v{version}`;
      const result = await run(binary, ['doctor', '--fix', '--version', '9.2.0'], {
        ...env,
        MCPBASH_RELEASE_BASE_URL: base,
      });
      t.equal(result.code, 0, 'doctor --fix succeeds');
      t.same(server.requests, ['/v9.2.0/SHA256SUMS', `/v9.2.0/${archive.name}`]);
      t.equal((await run(binary, ['--version'], env)).stdout.trim(), 'mcp-bash 9.2.0');
      const other = installedCopy();
      const unknown = await run(other.binary, ['doctor', '--fix', '--version', '9.3.0'], {
        ...other.env,
        MCPBASH_RELEASE_BASE_URL: base,
      });
      t.equal(unknown.code, 1, 'a release that does not exist');
      t.match(unknown.stdout, /cannot download .*\/v9\.3\.0\/SHA256SUMS: HTTP 404/);
    });

    t.test('--version of the running release changes nothing and fetches nothing', async (t) => {
      const { binary, env } = installedCopy();
      const before = installedHash();
      const result = await run(binary, ['doctor', '--fix', '--json', '--version', `v${current}`], {
        ...env,
        MCPBASH_RELEASE_BASE_URL: 'http://127.0.0.1:9/unreachable/v{version}',
      });
      t.equal(result.code, 0);
      t.match(JSON.parse(result.stdout).actionsTaken[0], {
        ok: true,
        message: `mcp-bash ${current} is already installed`,
      });
      t.equal(hashOf(binary), before);
    });

    t.test('without --fix the upgrade is only listed', async (t) => {
      const { binary, env } = installedCopy();
      const before = installedHash();
      const archive = fakeArchive('9.1.0', answering('9.1.0'));
      const result = await run(
        binary,
        ['doctor', '--dry-run', '--json', '--archive', archive.path, '--verify', archive.sha256],
        env,
      );
      t.equal(result.code, 0);
      t.match(JSON.parse(result.stdout).proposedActions[0], { id: 'binary.upgrade', command: /--fix --archive/ });
      t.equal(hashOf(binary), before);
    });

    t.test('the real release archive of this machine', async (t) => {
      const release = await hostRelease();
      const { binary, env } = installedCopy();
      const result = await run(
        binary,
        ['doctor', '--fix', '--archive', release.archivePath, '--verify', release.archiveSha256],
        env,
      );
      t.equal(result.code, 0, 'doctor --fix succeeds');
      t.equal((await run(binary, ['--version'], env)).stdout.trim(), `mcp-bash ${release.version}`);
    });
  },
);

t.test('doctor upgrade flags: usage errors exit 2; the bundle run by node is refused (3)', async (t) => {
  const env = isolatedEnv();
  const cases = [
    ['--archive', 'x.tar.gz'],
    ['--archive', 'x.tar.gz', '--verify', 'abc'],
    ['--verify', 'a'.repeat(64)],
    ['--archive', 'x.tar.gz', '--verify', 'a'.repeat(64), '--version', '2.1.0'],
    ['--version', 'latest'],
  ];
  for (const args of cases) {
    const result = await run(
      process.execPath,
      [join(repoRoot, 'dist', 'mcp-bash.cjs'), 'doctor', '--fix', ...args],
      env,
    );
    t.equal(result.code, 2, args.join(' '));
  }
  const archive = fakeArchive('9.1.0', answering('9.1.0'));
  const bundle = await run(
    process.execPath,
    [join(repoRoot, 'dist', 'mcp-bash.cjs'), 'doctor', '--fix', '--archive', archive.path, '--verify', archive.sha256],
    env,
  );
  t.equal(bundle.code, 3);
  t.match(bundle.stdout, /a bundle run by node .* doctor upgrades only the native binary/);
  t.ok(existsSync(join(repoRoot, 'dist', 'mcp-bash.cjs')));
});
