import { existsSync, readFileSync } from 'node:fs';
import { delimiter, join } from 'node:path';
import t from 'tap';
import { hostRelease } from '../../helpers/host-release.js';
import { INSTALLER_TOOLS, runCommand, Scratch } from '../../helpers/installer-env.js';
import { repoRoot } from '../../helpers/paths.js';
import { serveDirectory } from '../../helpers/static-server.js';

// The README's install commands, run as written against the host release served on
// 127.0.0.1: only the download location (and, off linux-x64, the platform) is substituted.
const unixHost = process.platform === 'linux' || process.platform === 'darwin';
const README_RELEASES = 'https://github.com/yaniv-golan/mcp-bash-framework/releases';
const scratch = new Scratch();
t.teardown(() => scratch.cleanup());

/** The command lines of the bash blocks in the README's "## Install" section. */
function installCommands(): string[] {
  const readme = readFileSync(join(repoRoot, 'README.md'), 'utf8');
  const section = readme.slice(
    readme.indexOf('\n## Install\n'),
    readme.indexOf('\n## ', readme.indexOf('\n## Install\n') + 5),
  );
  return [...section.matchAll(/```bash\n([\s\S]*?)```/g)].flatMap((block) =>
    (block[1] ?? '').split('\n').filter((line) => line.trim() !== ''),
  );
}

t.test('the README install commands work', { skip: unixHost ? false : 'Linux and macOS' }, async (t) => {
  const release = await hostRelease();
  const server = await serveDirectory(release.dir);
  t.teardown(() => server.close());
  const commands = installCommands();
  const find = (pattern: RegExp) => {
    const found = commands.filter((line) => pattern.test(line));
    t.equal(found.length, 1, `one README command matches ${pattern}`);
    return found[0] ?? '';
  };
  const local = (line: string) =>
    line
      .replaceAll(`${README_RELEASES}/latest/download`, server.url)
      .replaceAll(`${README_RELEASES}/download/v${release.version}`, server.url)
      .replaceAll('linux-x64', release.target)
      .replaceAll('<sha256 from SHA256SUMS>', release.archiveSha256);
  const home = scratch.dir('mcpbash-readme-home-');
  const env = { PATH: process.env.PATH, HOME: home, MCPBASH_RELEASE_BASE_URL: server.url };
  const binary = join(home, '.local', 'bin', 'mcp-bash');

  t.test('one curl line installs into ~/.local/bin', async (t) => {
    const result = await runCommand('sh', ['-c', local(find(/\| sh$/))], env);
    t.equal(result.code, 0, result.stderr);
    t.ok(existsSync(binary));
    t.equal((await runCommand(binary, ['--version'], env)).stdout.trim(), `mcp-bash ${release.version}`);
  });

  t.test('uninstall removes it', async (t) => {
    const result = await runCommand('sh', ['-c', local(find(/--uninstall$/))], env);
    t.equal(result.code, 0, result.stderr);
    t.notOk(existsSync(binary));
  });

  t.test('air-gapped: two lines, the second with no network and no download tool', async (t) => {
    const fetchLine = find(/^curl -fsSLO /);
    t.match(fetchLine, `/download/v${release.version}/`, 'the README names the current version');
    const work = scratch.dir('mcpbash-airgap-');
    const fetched = await runCommand('sh', ['-c', local(fetchLine)], env, work);
    t.equal(fetched.code, 0, fetched.stderr);
    const offlineHome = scratch.dir('mcpbash-airgap-home-');
    const tools = scratch.toolPath(INSTALLER_TOOLS);
    const offline = { PATH: tools, HOME: offlineHome, MCPBASH_RELEASE_BASE_URL: 'http://127.0.0.1:9/unreachable' };
    const installed = await runCommand('sh', ['-c', local(find(/^sh install\.sh --archive /))], offline, work);
    t.equal(installed.code, 0, installed.stderr);
    t.ok(existsSync(join(offlineHome, '.local', 'bin', 'mcp-bash')));
    t.notOk(tools.split(delimiter).some((dir) => existsSync(join(dir, 'curl')) || existsSync(join(dir, 'wget'))));
  });

  t.test('brew and scoop name the release formula and manifest', async (t) => {
    t.match(find(/^brew install /), /\/mcp-bash$/);
    t.match(find(/^scoop install /), `${README_RELEASES}/latest/download/mcp-bash.json`);
    t.ok(existsSync(join(release.dir, 'mcp-bash.rb')), 'the release has the formula');
  });
});
