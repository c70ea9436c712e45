import { spawn, spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { readdirSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import t from 'tap';
import { bundledPackageDirs, packageNotices, withDependencies } from '../../../release/notices.mjs';
import { hostRelease } from '../../helpers/host-release.js';
import { repoRoot } from '../../helpers/paths.js';
import { parseFormula, parseSums } from '../../helpers/release-files.js';
import { scratchDir } from '../../helpers/scratch.js';

const unixHost = process.platform === 'linux' || process.platform === 'darwin';
const sha256 = (path: string) => createHash('sha256').update(readFileSync(path)).digest('hex');
const scratch = scratchDir('mcpbash-release-test-');
t.teardown(() => rmSync(scratch, { recursive: true, force: true }));

t.test('the host release', { skip: unixHost ? false : 'tar.gz targets only' }, async (t) => {
  const release = await hostRelease();

  t.test('SHA256SUMS covers every file of the release', async (t) => {
    const files = readdirSync(release.dir).filter((name) => !name.startsWith('.') && name !== 'SHA256SUMS');
    t.same([...release.sums.keys()].sort(), files.sort());
    for (const [name, hash] of release.sums) t.equal(sha256(join(release.dir, name)), hash, name);
  });

  t.test('the archive unpacks to the binary, LICENSE, README.md and THIRD-PARTY-NOTICES', async (t) => {
    const out = join(scratch, 'unpacked');
    spawnSync('mkdir', ['-p', out]);
    t.equal(spawnSync('tar', ['-xzf', release.archivePath, '-C', out]).status, 0);
    const top = `mcp-bash-${release.version}-${release.target}`;
    t.same(readdirSync(out), [top]);
    t.same(
      readdirSync(join(out, top)).sort(),
      ['LICENSE', 'README.md', 'THIRD-PARTY-NOTICES', release.binaryName].sort(),
    );
    t.equal(readFileSync(join(out, top, 'LICENSE'), 'utf8'), readFileSync(join(repoRoot, 'LICENSE'), 'utf8'));
    t.match(
      readFileSync(join(repoRoot, 'LICENSE'), 'utf8'),
      /^MIT License\n\nCopyright \(c\) \d{4} mcp-bash contributors\n/,
    );
    t.equal(readFileSync(join(out, top, 'README.md'), 'utf8'), readFileSync(join(repoRoot, 'README.md'), 'utf8'));
    const home = join(scratch, 'home');
    const version = spawnSync(join(out, top, release.binaryName), ['--version'], {
      encoding: 'utf8',
      env: { ...process.env, HOME: home },
    });
    t.equal(version.stdout.trim(), `mcp-bash ${release.version}`, 'the packed (stripped) binary runs');
  });

  t.test('THIRD-PARTY-NOTICES covers Node, every bundled package and jq', async (t) => {
    const notices = spawnSync(
      'tar',
      ['-xzOf', release.archivePath, `mcp-bash-${release.version}-${release.target}/THIRD-PARTY-NOTICES`],
      {
        encoding: 'utf8',
        maxBuffer: 16 * 1024 * 1024,
      },
    ).stdout;
    t.match(notices, /\nNode\.js 22\.\d+\.\d+\n=+\n\nNode\.js is licensed for use as follows/);
    t.match(notices, /V8/);
    t.match(notices, /OpenSSL/);
    // What esbuild put into the bundle (its metafile), plus the embedded jq-wasm, plus what they depend on.
    const metafile = JSON.parse(readFileSync(join(repoRoot, 'dist', 'mcp-bash.meta.json'), 'utf8'));
    const dirs = withDependencies(repoRoot, [...bundledPackageDirs(metafile), 'node_modules/jq-wasm']);
    for (const name of ['ajv', 'minimist', 'tar', 'minipass', 'jq-wasm'])
      t.ok(
        dirs.some((dir) => dir.endsWith(`/${name}`)),
        `${name} is among the bundled packages`,
      );
    for (const pkg of packageNotices(repoRoot, dirs)) {
      t.ok(notices.includes(`\n${pkg.name} ${pkg.version} (${pkg.license})\n`), `${pkg.name} has a section`);
      t.ok(notices.includes(pkg.text), `${pkg.name}'s license text is there`);
    }
    t.match(notices, /jq is copyright \(C\) 2012 Stephen Dolan/);
    t.match(notices, /decNumber/);
    t.match(notices, /Oniguruma/);
  });

  t.test('the formula carries the archive hashes of SHA256SUMS and tests --version', async (t) => {
    const formula = parseFormula(readFileSync(join(release.dir, 'mcp-bash.rb'), 'utf8'));
    t.equal(formula.version, release.version);
    t.equal(formula.archives.length, 1, 'the host release has one platform');
    for (const archive of formula.archives) {
      const name = archive.url.split('/').at(-1) as string;
      t.equal(name, release.archive);
      t.equal(archive.sha256, release.sums.get(name));
      t.match(archive.url, new RegExp(`/releases/download/v${release.version.replaceAll('.', '\\.')}/`));
    }
    t.match(formula.test, /mcp-bash --version/);
  });

  t.test('install.sh is rendered for this release and shellcheck-clean as POSIX sh', async (t) => {
    const script = readFileSync(join(release.dir, 'install.sh'), 'utf8');
    t.match(script, new RegExp(`^RENDERED_VERSION='${release.version.replaceAll('.', '\\.')}'$`, 'm'));
    t.notMatch(script, /@MCPBASH_/);
    const check = spawnSync('shellcheck', ['-s', 'sh', '--severity=style', join(release.dir, 'install.sh')], {
      encoding: 'utf8',
    });
    if (check.error) t.comment('shellcheck is not installed');
    else t.equal(check.status, 0, check.stdout);
  });

  t.test('two builds of one commit give the same SHA256SUMS', async (t) => {
    const second = join(scratch, 'second-release');
    const env = { ...process.env };
    delete env.MCPBASH_RELEASE_BASE_URL;
    delete env.SOURCE_DATE_EPOCH;
    const build = await new Promise<number | null>((resolve) => {
      const child = spawn(process.execPath, ['build.mjs', '--release', '--if-needed', '--no-binary', '--out', second], {
        cwd: repoRoot,
        env,
        stdio: 'ignore',
      });
      child.on('close', resolve);
    });
    t.equal(build, 0);
    t.same(parseSums(readFileSync(join(second, 'SHA256SUMS'), 'utf8')), release.sums);
  });
});
