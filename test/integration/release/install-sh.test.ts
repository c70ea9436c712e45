import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { chmodSync, existsSync, mkdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { delimiter, join } from 'node:path';
import t from 'tap';
import { writeTarGz } from '../../../release/archive.mjs';
import { type HostRelease, hostRelease } from '../../helpers/host-release.js';
import { INSTALLER_TOOLS, runCommand, Scratch, which } from '../../helpers/installer-env.js';
import { serveDirectory } from '../../helpers/static-server.js';

// install.sh from the host target's release (test/helpers/host-release.ts), served on
// 127.0.0.1 as a release download directory would be.
const unixHost = process.platform === 'linux' || process.platform === 'darwin';

const scratch = new Scratch();
t.teardown(() => scratch.cleanup());
const run = runCommand;
const toolPath = (names: readonly string[]) => scratch.toolPath(names);
const freshHome = () => scratch.dir('mcpbash-install-home-');
const BASIC_TOOLS = INSTALLER_TOOLS;

function installerEnv(home: string, extra: NodeJS.ProcessEnv = {}): NodeJS.ProcessEnv {
  return { PATH: process.env.PATH, HOME: home, TMPDIR: tmpdir(), ...extra };
}

const sha256 = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex');

t.test('install.sh', { skip: unixHost ? false : 'install.sh is for Linux and macOS' }, async (t) => {
  const release: HostRelease = await hostRelease();
  const installer = join(release.dir, 'install.sh');
  const server = await serveDirectory(release.dir);
  t.teardown(() => server.close());
  const [os, arch] = release.target.split('-');

  t.test('a fresh HOME without ~/.local/bin: installed, runs, PATH advice given', async (t) => {
    const home = freshHome();
    t.notOk(existsSync(join(home, '.local')), 'no ~/.local yet');
    const result = await run('/bin/sh', [installer], installerEnv(home, { MCPBASH_RELEASE_BASE_URL: server.url }));
    t.equal(result.code, 0, result.stderr);
    const binary = join(home, '.local', 'bin', 'mcp-bash');
    t.equal(statSync(binary).mode & 0o777, 0o755);
    const version = spawnSync(binary, ['--version'], { encoding: 'utf8', env: { ...process.env, HOME: home } });
    t.equal(version.stdout.trim(), `mcp-bash ${release.version}`);
    t.match(result.stderr, `installed mcp-bash ${release.version} at ${binary}`);
    t.match(result.stderr, /\.local\/bin is not on your PATH/);
    t.match(result.stderr, /export PATH=/);
    t.ok(server.requests.includes(`/${release.archive}`) && server.requests.includes('/SHA256SUMS'));
  });

  t.test('--base-url with {version} wins over MCPBASH_RELEASE_BASE_URL; --dir is created', async (t) => {
    const home = freshHome();
    const prefixed = await serveDirectory(release.dir, {}, `/v${release.version}`);
    t.teardown(() => prefixed.close());
    const dir = join(home, 'tools', 'bin');
    const base = `${prefixed.url.replace(`/v${release.version}`, '')}/v{version}`;
    const env = installerEnv(home, {
      MCPBASH_RELEASE_BASE_URL: 'http://127.0.0.1:9/nowhere',
      PATH: `${dir}${delimiter}${process.env.PATH}`,
    });
    const result = await run('/bin/sh', [installer, '--base-url', base, '--dir', dir], env);
    t.equal(result.code, 0, result.stderr);
    t.ok(existsSync(join(dir, 'mcp-bash')));
    t.notMatch(result.stderr, /not on your PATH/, 'no advice when the dir is on PATH');
  });

  t.test('a tampered archive is refused and nothing is installed', async (t) => {
    const original = readFileSync(release.archivePath);
    const tampered = Buffer.from(original);
    tampered[tampered.length - 100] = (tampered[tampered.length - 100] ?? 0) ^ 0xff;
    const evil = await serveDirectory(release.dir, { [`/${release.archive}`]: tampered });
    t.teardown(() => evil.close());
    const home = freshHome();
    const result = await run('/bin/sh', [installer], installerEnv(home, { MCPBASH_RELEASE_BASE_URL: evil.url }));
    t.equal(result.code, 1);
    t.match(
      result.stderr,
      `checksum mismatch: expected ${release.archiveSha256}, got ${sha256(tampered)}; nothing was installed`,
    );
    t.notOk(existsSync(join(home, '.local', 'bin', 'mcp-bash')), 'no binary');
    t.notOk(existsSync(join(home, '.local', 'bin')), 'not even the directory');
  });

  t.test('an unsupported platform gets a message naming the supported ones', async (t) => {
    for (const [system, machine] of [
      ['FreeBSD', 'amd64'],
      ['Linux', 'riscv64'],
    ]) {
      const fake = scratch.dir('mcpbash-uname-');
      writeFileSync(join(fake, 'uname'), `#!/bin/sh\ncase "$1" in -m) echo ${machine} ;; *) echo ${system} ;; esac\n`);
      chmodSync(join(fake, 'uname'), 0o755);
      const home = freshHome();
      const env = installerEnv(home, {
        MCPBASH_RELEASE_BASE_URL: server.url,
        PATH: `${fake}${delimiter}${process.env.PATH}`,
      });
      const result = await run('/bin/sh', [installer], env);
      t.equal(result.code, 1, `${system} ${machine}`);
      t.match(result.stderr, new RegExp(`unsupported .*${machine === 'amd64' ? system : machine}`));
      t.match(result.stderr, /linux-x64, linux-arm64, darwin-x64, darwin-arm64/);
      t.notOk(existsSync(join(home, '.local')));
    }
  });

  t.test('wget is used when curl is missing', { skip: which('wget') ? false : 'wget is not installed' }, async (t) => {
    const tools = toolPath(BASIC_TOOLS);
    const log = join(tools, 'wget.log');
    writeFileSync(join(tools, 'wget'), `#!/bin/sh\necho "$@" >> '${log}'\nexec '${which('wget')}' "$@"\n`);
    chmodSync(join(tools, 'wget'), 0o755);
    const home = freshHome();
    const result = await run(
      '/bin/sh',
      [installer],
      installerEnv(home, { MCPBASH_RELEASE_BASE_URL: server.url, PATH: tools }),
    );
    t.equal(result.code, 0, result.stderr);
    t.match(readFileSync(log, 'utf8'), release.archive, 'wget fetched the archive');
    t.ok(existsSync(join(home, '.local', 'bin', 'mcp-bash')));
  });

  t.test('neither curl nor wget: a clear message', async (t) => {
    const home = freshHome();
    const env = installerEnv(home, { MCPBASH_RELEASE_BASE_URL: server.url, PATH: toolPath(BASIC_TOOLS) });
    const result = await run('/bin/sh', [installer], env);
    t.equal(result.code, 1);
    t.match(result.stderr, /needs curl or wget/);
  });

  t.test('air-gapped: --archive --verify installs with no network and no download tool', async (t) => {
    const home = freshHome();
    const env = installerEnv(home, {
      MCPBASH_RELEASE_BASE_URL: 'http://127.0.0.1:9/unreachable',
      PATH: toolPath(BASIC_TOOLS),
    });
    const result = await run(
      '/bin/sh',
      [installer, '--archive', release.archivePath, '--verify', release.archiveSha256],
      env,
    );
    t.equal(result.code, 0, result.stderr);
    t.ok(existsSync(join(home, '.local', 'bin', 'mcp-bash')));
    const wrong = await run(
      '/bin/sh',
      [installer, '--archive', release.archivePath, '--verify', 'a'.repeat(64)],
      installerEnv(freshHome()),
    );
    t.equal(wrong.code, 1, 'a wrong --verify installs nothing');
    t.match(wrong.stderr, /checksum mismatch/);
    const missing = await run('/bin/sh', [installer, '--archive', release.archivePath], installerEnv(freshHome()));
    t.equal(missing.code, 2, '--archive without --verify is a usage error');
    t.match(missing.stderr, /--archive needs --verify/);
  });

  t.test('re-running upgrades in place; --version picks the release', async (t) => {
    const home = freshHome();
    const env = installerEnv(home, { MCPBASH_RELEASE_BASE_URL: server.url });
    t.equal((await run('/bin/sh', [installer], env)).code, 0);
    const binary = join(home, '.local', 'bin', 'mcp-bash');
    const firstInode = statSync(binary).ino;
    // A newer release whose "binary" is a script that answers --version.
    const newer = '9.9.9';
    const newerDir = scratch.dir('mcpbash-newer-');
    const name = `mcp-bash-${newer}-${os}-${arch}.tar.gz`;
    const script = Buffer.from(`#!/bin/sh\necho "mcp-bash ${newer}"\n`);
    writeTarGz(
      join(newerDir, name),
      [{ path: `mcp-bash-${newer}-${os}-${arch}/mcp-bash`, mode: 0o755, content: script }],
      new Date(0),
    );
    writeFileSync(join(newerDir, 'SHA256SUMS'), `${sha256(readFileSync(join(newerDir, name)))}  ${name}\n`);
    const newerServer = await serveDirectory(newerDir, {}, `/v${newer}`);
    t.teardown(() => newerServer.close());
    const base = `${newerServer.url.replace(`/v${newer}`, '')}/v{version}`;
    const upgrade = await run('/bin/sh', [installer, '--version', `v${newer}`], {
      ...env,
      MCPBASH_RELEASE_BASE_URL: base,
    });
    t.equal(upgrade.code, 0, upgrade.stderr);
    t.match(upgrade.stderr, `upgraded ${binary}: ${release.version} -> ${newer}`);
    t.equal(spawnSync(binary, ['--version'], { encoding: 'utf8' }).stdout.trim(), `mcp-bash ${newer}`);
    t.not(statSync(binary).ino, firstInode, 'a new file renamed into place, not rewritten');
    t.same(
      spawnSync('ls', ['-A', join(home, '.local', 'bin')], { encoding: 'utf8' }).stdout.trim(),
      'mcp-bash',
      'no temp file left behind',
    );
  });

  t.test('--uninstall removes the binary and the files it extracted, and nothing else', async (t) => {
    const home = freshHome();
    const env = installerEnv(home, { MCPBASH_RELEASE_BASE_URL: server.url });
    t.equal((await run('/bin/sh', [installer], env)).code, 0);
    const data = join(home, '.local', 'share', 'mcp-bash');
    t.notOk(existsSync(data), 'checking the binary (--version) extracted nothing');
    const installed = join(home, '.local', 'bin', 'mcp-bash');
    t.equal(spawnSync(installed, ['jq', '-n', '1'], { env }).status, 0);
    t.ok(existsSync(data), 'the binary extracted its framework files when it ran');
    mkdirSync(join(data, '1.x-install'), { recursive: true });
    // A run with XDG_DATA_HOME set extracted there too: both are removed (D118).
    const xdg = join(home, 'xdg');
    t.equal(spawnSync(installed, ['jq', '-n', '1'], { env: { ...env, XDG_DATA_HOME: xdg } }).status, 0);
    const result = await run('/bin/sh', [installer, '--uninstall'], { ...env, XDG_DATA_HOME: xdg });
    t.equal(result.code, 0, result.stderr);
    t.notOk(existsSync(join(home, '.local', 'bin', 'mcp-bash')));
    t.same(spawnSync('ls', ['-A', data], { encoding: 'utf8' }).stdout.trim(), '1.x-install', 'a 1.x install stays');
    t.notOk(existsSync(join(xdg, 'mcp-bash')), 'the files under $XDG_DATA_HOME are gone too');
    t.match(result.stderr, `removed ${join(xdg, 'mcp-bash', release.version)}-`);
    t.match(result.stderr, `removed ${join(data, release.version)}-`);
    const again = await run('/bin/sh', [installer, '--uninstall'], env);
    t.equal(again.code, 0);
    t.match(again.stderr, /nothing to uninstall/);
    // A relative XDG_DATA_HOME is ignored, as the binary ignores it.
    t.equal((await run('/bin/sh', [installer], env)).code, 0);
    const relative = await run('/bin/sh', [installer, '--uninstall'], { ...env, XDG_DATA_HOME: 'rel' }, home);
    t.equal(relative.code, 0, relative.stderr);
    t.match(relative.stderr, /no extracted framework files found/);
    writeFileSync(join(home, '.local', 'bin', 'mcp-bash'), '#!/bin/sh\necho something else\n', { mode: 0o755 });
    const foreign = await run('/bin/sh', [installer, '--uninstall'], env);
    t.equal(foreign.code, 3, 'a file that is not mcp-bash is refused');
    t.ok(existsSync(join(home, '.local', 'bin', 'mcp-bash')));
  });

  t.test('a file that is not mcp-bash is never replaced', async (t) => {
    const home = freshHome();
    const dir = join(home, 'bin');
    mkdirSync(dir);
    const foreign = join(dir, 'mcp-bash');
    writeFileSync(foreign, '#!/bin/sh\necho hi\n', { mode: 0o755 });
    const args = [installer, '--archive', release.archivePath, '--verify', release.archiveSha256, '--dir', dir];
    const result = await run('/bin/sh', args, installerEnv(home));
    t.equal(result.code, 3, result.stderr);
    t.match(result.stderr, `${foreign} is not an mcp-bash binary`);
    t.equal(readFileSync(foreign, 'utf8'), '#!/bin/sh\necho hi\n', 'the file is untouched');
    t.same(spawnSync('ls', ['-A', dir], { encoding: 'utf8' }).stdout.trim(), 'mcp-bash', 'nothing staged is left');
  });

  t.test('a binary that does not run: the glibc hint, nothing installed or left behind', async (t) => {
    const home = freshHome();
    const dir = join(home, 'bin');
    const name = `mcp-bash-9.9.8-${os}-${arch}.tar.gz`;
    const broken = join(scratch.dir('mcpbash-broken-'), name);
    writeTarGz(broken, [{ path: 'mcp-bash', mode: 0o755, content: Buffer.from('#!/bin/sh\nexit 127\n') }], new Date(0));
    const args = [installer, '--archive', broken, '--verify', sha256(readFileSync(broken)), '--dir', dir];
    const result = await run('/bin/sh', args, installerEnv(home));
    t.equal(result.code, 1);
    const why = os === 'linux' ? 'it needs glibc 2.28 or newer; or is .+ mounted noexec\\?' : 'is .+ mounted noexec\\?';
    t.match(
      result.stderr,
      new RegExp(`does not run on this machine \\(${why} \\(--dir DIR installs elsewhere\\)\\); nothing was installed`),
    );
    t.same(spawnSync('ls', ['-A', dir], { encoding: 'utf8' }).stdout.trim(), '', 'the staged copy is removed');
  });

  t.test('no HOME and a relative --dir: installed, absolute PATH advice, exit 0', async (t) => {
    const cwd = freshHome();
    const env: NodeJS.ProcessEnv = { PATH: process.env.PATH, TMPDIR: tmpdir(), SHELL: '/bin/bash' };
    const args = [installer, '--archive', release.archivePath, '--verify', release.archiveSha256, '--dir', 'rel/bin'];
    const result = await run('/bin/sh', args, env, cwd);
    t.equal(result.code, 0, result.stderr);
    t.ok(existsSync(join(cwd, 'rel', 'bin', 'mcp-bash')));
    t.match(result.stderr, `export PATH="${join(cwd, 'rel', 'bin')}:$PATH"`);
    t.match(result.stderr, 'your shell profile');
  });

  t.test('usage errors exit 2; --help exits 0', async (t) => {
    const env = installerEnv(freshHome());
    for (const args of [['--bogus'], ['--dir'], ['--branch', 'main'], ['--archive', 'x.tgz', '--verify', 'nothex']]) {
      const result = await run('/bin/sh', [installer, ...args], env);
      t.equal(result.code, 2, args.join(' '));
    }
    const help = await run('/bin/sh', [installer, '--help'], env);
    t.equal(help.code, 0);
    t.match(help.stdout, /--archive PATH\|URL/);
  });
});
