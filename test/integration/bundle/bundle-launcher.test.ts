/**
 * The launcher of `--runtime binary` bundles (assets/scaffold/runtime/bundle-launcher.sh)
 * on every OS and CPU it knows, faked with stand-ins for uname, sysctl and codesign on
 * PATH, and stand-in binaries that report how they were started.
 */
import { spawnSync } from 'node:child_process';
import { chmodSync, copyFileSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import t, { type Test } from 'tap';
import { repoRoot } from '../../helpers/paths.js';

const LAUNCHER = join(repoRoot, 'assets', 'scaffold', 'runtime', 'bundle-launcher.sh');

function script(path: string, body: string): void {
  writeFileSync(path, `#!/bin/sh\n${body}\n`);
  chmodSync(path, 0o755);
}

interface Machine {
  readonly os: string;
  readonly cpu: string;
  readonly translated?: string;
  readonly binaries: string[];
  /** `codesign -v` succeeds (the binary is signed). */
  readonly signed?: boolean;
}

/** An unpacked bundle's server/ with stand-in binaries, and a PATH faking the machine. */
function setUp(t: Test, machine: Machine) {
  const dir = t.testdir({ server: { bin: {} }, fakes: {} });
  const server = join(dir, 'server');
  const fakes = join(dir, 'fakes');
  copyFileSync(LAUNCHER, join(server, 'run-server.sh'));
  chmodSync(join(server, 'run-server.sh'), 0o755);
  for (const name of machine.binaries) {
    script(
      join(server, 'bin', name),
      `IFS= read -r line || line=''\nprintf '%s|%s|%s|%s|%s\\n' "${name}" "$*" "$PATH" "$MCPBASH_PROJECT_ROOT" "$line"`,
    );
  }
  script(join(fakes, 'uname'), `case "$1" in -s) echo ${machine.os} ;; -m) echo ${machine.cpu} ;; esac`);
  script(join(fakes, 'sysctl'), machine.translated === undefined ? 'exit 1' : `echo ${machine.translated}`);
  script(
    join(fakes, 'codesign'),
    `echo "$*" >> "${join(dir, 'codesign.log')}"; [ "$1" = -v ] && exit ${machine.signed ? 0 : 1}; exit 0`,
  );
  const PATH = `${fakes}:/usr/bin:/bin`;
  return { dir, server, PATH };
}

function launch(server: string, env: NodeJS.ProcessEnv) {
  return spawnSync(join(server, 'run-server.sh'), ['--flag', 'x y'], {
    env: { MCPB_SKIP_LOGIN_SHELL: '1', ...env },
    encoding: 'utf8',
  });
}

t.test('the binary for the OS and CPU, with the arguments and the project root', async (t) => {
  const cases: Array<[Machine, string]> = [
    [{ os: 'Linux', cpu: 'x86_64', binaries: ['mcp-bash-linux-x64', 'mcp-bash-linux-arm64'] }, 'mcp-bash-linux-x64'],
    [{ os: 'Linux', cpu: 'aarch64', binaries: ['mcp-bash-linux-x64', 'mcp-bash-linux-arm64'] }, 'mcp-bash-linux-arm64'],
    [
      { os: 'Darwin', cpu: 'arm64', binaries: ['mcp-bash-darwin-x64', 'mcp-bash-darwin-arm64'], signed: true },
      'mcp-bash-darwin-arm64',
    ],
    [
      {
        os: 'Darwin',
        cpu: 'x86_64',
        translated: '0',
        binaries: ['mcp-bash-darwin-x64', 'mcp-bash-darwin-arm64'],
        signed: true,
      },
      'mcp-bash-darwin-x64',
    ],
    [
      {
        os: 'Darwin',
        cpu: 'x86_64',
        translated: '1',
        binaries: ['mcp-bash-darwin-x64', 'mcp-bash-darwin-arm64'],
        signed: true,
      },
      'mcp-bash-darwin-arm64',
    ],
    [{ os: 'Darwin', cpu: 'arm64', binaries: ['mcp-bash-darwin-x64'], signed: true }, 'mcp-bash-darwin-x64'],
  ];
  for (const [machine, expected] of cases) {
    const { server, PATH } = setUp(t, machine);
    const run = launch(server, { PATH });
    const label =
      `${machine.os} ${machine.cpu}${machine.translated === '1' ? ' (Rosetta)' : ''} with ` +
      `${machine.binaries.join(', ')}`;
    t.equal(run.status, 0, `${label}: ${run.stderr}`);
    t.equal(run.stdout, `${expected}|--flag x y|${PATH}|${server}|\n`, `${label} runs ${expected}`);
  }
});

t.test('an OS or CPU without a binary is an error that says so', async (t) => {
  const cases: Array<[Machine, RegExp]> = [
    [{ os: 'FreeBSD', cpu: 'amd64', binaries: ['mcp-bash-linux-x64'] }, /this bundle has no binary for FreeBSD/],
    [{ os: 'Linux', cpu: 'riscv64', binaries: ['mcp-bash-linux-x64'] }, /no binary for the riscv64 CPU/],
    [
      { os: 'Linux', cpu: 'aarch64', binaries: ['mcp-bash-linux-x64'] },
      /no binary for linux-arm64 \(looked for .*bin\/mcp-bash-linux-arm64\)/,
    ],
  ];
  for (const [machine, message] of cases) {
    const { server, PATH } = setUp(t, machine);
    const run = launch(server, { PATH });
    t.equal(run.status, 1, `${machine.os} ${machine.cpu}: exit 1`);
    t.match(run.stderr, message);
    t.equal(run.stdout, '', 'nothing on stdout (the MCP stream)');
  }
});

t.test('macOS: an unsigned binary is signed ad hoc once; a signed one is left alone', async (t) => {
  const unsigned = setUp(t, { os: 'Darwin', cpu: 'arm64', binaries: ['mcp-bash-darwin-arm64'] });
  t.equal(launch(unsigned.server, { PATH: unsigned.PATH }).status, 0);
  t.equal(
    readFileSync(join(unsigned.dir, 'codesign.log'), 'utf8'),
    `-v ${unsigned.server}/bin/mcp-bash-darwin-arm64\n--force --sign - ${unsigned.server}/bin/mcp-bash-darwin-arm64\n`,
  );
  const signed = setUp(t, { os: 'Darwin', cpu: 'arm64', binaries: ['mcp-bash-darwin-arm64'], signed: true });
  t.equal(launch(signed.server, { PATH: signed.PATH }).status, 0);
  t.equal(readFileSync(join(signed.dir, 'codesign.log'), 'utf8'), `-v ${signed.server}/bin/mcp-bash-darwin-arm64\n`);
  const linux = setUp(t, { os: 'Linux', cpu: 'x86_64', binaries: ['mcp-bash-linux-x64'] });
  t.equal(launch(linux.server, { PATH: linux.PATH }).status, 0);
  t.notOk(existsSync(join(linux.dir, 'codesign.log')), 'never on linux');
});

t.test(
  "PATH comes from the login shell, and nothing else it prints; MCPB_SKIP_LOGIN_SHELL keeps the client's",
  async (t) => {
    const { dir, server, PATH } = setUp(t, { os: 'Linux', cpu: 'x86_64', binaries: ['mcp-bash-linux-x64'] });
    const login = join(dir, 'login-shell');
    mkdirSync(join(dir, 'home-bin'));
    // A login shell whose profile chats on stdout and would swallow stdin if it read it.
    script(login, `echo "Welcome back!"; cat >/dev/null; PATH="${join(dir, 'home-bin')}:$PATH"; eval "$2"`);
    const run = spawnSync(join(server, 'run-server.sh'), [], {
      env: { PATH, SHELL: login },
      input: 'the JSON-RPC stream\n',
      encoding: 'utf8',
    });
    t.equal(run.status, 0, run.stderr);
    t.equal(
      run.stdout,
      `mcp-bash-linux-x64||${join(dir, 'home-bin')}:${PATH}|${server}|the JSON-RPC stream\n`,
      'the login PATH, no greeting, and stdin left for the server',
    );
    const skipped = spawnSync(join(server, 'run-server.sh'), [], {
      env: { PATH, SHELL: login, MCPB_SKIP_LOGIN_SHELL: '1' },
      encoding: 'utf8',
    });
    t.equal(skipped.stdout, `mcp-bash-linux-x64||${PATH}|${server}|\n`);
    const root = spawnSync(join(server, 'run-server.sh'), [], {
      env: { PATH, MCPB_SKIP_LOGIN_SHELL: '1', MCPBASH_PROJECT_ROOT: '/elsewhere' },
      encoding: 'utf8',
    });
    t.match(root.stdout, /\|\/elsewhere\|\n$/, 'an MCPBASH_PROJECT_ROOT from the manifest wins');
  },
);
