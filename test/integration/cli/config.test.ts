import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, realpathSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { delimiter, join } from 'node:path';
import t from 'tap';
import { configJsonSchema } from '../../helpers/cli-output-schemas.js';
import { cli, matchesSchema, newProject, parseJson, sharedCliEnv, tempDir } from '../../helpers/cli-projects.js';
import { binaryCommand } from '../../helpers/paths.js';

const env = sharedCliEnv();
const { command: binCommand, prefix } = binaryCommand();

let root = '';
t.before(async () => {
  root = await newProject(t, env, 'cfg-server');
});

t.test('--json is the launch: this binary, MCPBASH_PROJECT_ROOT and the allowlist', async (t) => {
  const run = await cli(['config', '--json'], env, root);
  t.equal(run.code, 0, run.stderr);
  const launch = parseJson(t, run.stdout, 'config --json');
  matchesSchema(t, launch, configJsonSchema, 'config --json');
  t.same(launch, {
    name: 'cfg-server',
    command: binCommand,
    args: prefix,
    env: { MCPBASH_PROJECT_ROOT: root, MCPBASH_TOOL_ALLOWLIST: '*' },
  });
});

t.test('--client prints each client format; an unknown client names the known ones (exit 2)', async (t) => {
  const entry = { command: binCommand, args: prefix, env: { MCPBASH_PROJECT_ROOT: root, MCPBASH_TOOL_ALLOWLIST: '*' } };
  for (const client of ['claude-desktop', 'cursor', 'windsurf']) {
    const run = await cli(['config', '--client', client], env, root);
    t.same(parseJson(t, run.stdout, client), { mcpServers: { 'cfg-server': entry } }, client);
  }
  const vscode = await cli(['config', '--client', 'vscode'], env, root);
  t.same(parseJson(t, vscode.stdout, 'vscode'), { servers: { 'cfg-server': { type: 'stdio', ...entry } } });
  // 1.x printed the JSON object {name, command, env} for Claude CLI and LibreChat.
  const launch = {
    name: 'cfg-server',
    command: binCommand,
    ...(prefix.length > 0 ? { args: prefix } : {}),
    env: entry.env,
  };
  for (const client of ['claude-cli', 'claude-code', 'librechat']) {
    const run = await cli(['config', '--client', client], env, root);
    t.equal(run.code, 0, run.stderr);
    t.same(parseJson(t, run.stdout, client), launch, `${client}: 1.x's {name, command, env}`);
    t.match(run.stderr, /^note: 'mcp-bash config --client \S+ --native' prints the form to paste/, 'names --native');
  }
  const claude = await cli(['config', '--client', 'claude-code', '--native'], env, root);
  t.equal(claude.stderr, '', 'no note with --native');
  t.match(claude.stdout, /^claude mcp add-json cfg-server '\{"type":"stdio","command":/);
  const librechat = await cli(['config', '--client', 'librechat', '--native'], env, root);
  t.match(librechat.stdout, /^mcpServers:\n {2}"cfg-server":\n {4}type: stdio\n {4}command: ".+"\n/);
  t.match(librechat.stdout, /MCPBASH_TOOL_ALLOWLIST: "\*"/);
  const desktop = await cli(['config', '--client', 'claude-desktop', '--native'], env, root);
  t.same(parseJson(t, desktop.stdout, 'native desktop'), { mcpServers: { 'cfg-server': entry } }, 'already native');
  const unknown = await cli(['config', '--client', 'emacs'], env, root);
  t.equal(unknown.code, 2);
  t.equal(unknown.stdout, '');
  t.match(
    unknown.stderr,
    new RegExp(
      'unknown client "emacs"\\nKnown clients: claude-desktop, cursor, claude-cli, windsurf, librechat, vscode ' +
        '\\(claude-code = claude-cli\\)\\.',
    ),
  );
});

t.test('--show (the default) labels a snippet per client; --inspector; one mode at a time', async (t) => {
  const show = await cli(['config'], env, root);
  t.equal(show.code, 0);
  const labels = [...show.stdout.matchAll(/^# (.+)\n# .+\n/gm)].map((match) => match[1]);
  t.same(
    labels,
    ['Claude Desktop', 'Cursor', 'Claude CLI', 'Windsurf', 'LibreChat', 'VS Code'],
    "1.x's labels, in 1.x's order, then VS Code",
  );
  // --native (2.x, D222) swaps in the client's own form where it has one, under its own "where".
  const native = await cli(['config', '--native'], env, root);
  t.equal(native.code, 0, native.stderr);
  t.match(native.stdout, /^# Claude CLI\n# run in a shell\nclaude mcp add-json cfg-server '/m);
  t.match(native.stdout, /^# LibreChat\n# librechat\.yaml\nmcpServers:\n {2}"cfg-server":\n/m);
  t.match(native.stdout, /^# Cursor\n# .+\n\{\n {2}"mcpServers"/m, 'clients without a native form keep theirs');
  const inspector = await cli(['config', '--inspector'], env, root);
  t.match(inspector.stdout, /^npx @modelcontextprotocol\/inspector -e MCPBASH_PROJECT_ROOT=.+ --transport stdio -- /);
  const both = await cli(['config', '--json', '--show'], env, root);
  t.equal(both.code, 2);
  t.match(both.stderr, /choose one of --show, --json/);
});

t.test('--wrapper prints a launcher when piped; it is shellcheck-clean and serves its own directory', async (t) => {
  const run = await cli(['config', '--wrapper'], env, root);
  t.equal(run.code, 0);
  t.match(run.stdout, /^#!\/usr\/bin\/env bash\n/);
  const wrapper = join(root, 'launch.sh');
  writeFileSync(wrapper, run.stdout, { mode: 0o755 });
  const env2 = { ...env, MCPBASH_BIN: binCommand === process.execPath ? (prefix[0] as string) : binCommand };
  const served = spawnSync(wrapper, ['--version'], { env: env2, encoding: 'utf8' });
  t.match(served.stdout, /^mcp-bash \d/, 'the wrapper starts mcp-bash');
  const shellcheck = spawnSync('shellcheck', ['-x', '--severity=style', wrapper], { encoding: 'utf8' });
  if (!shellcheck.error) t.equal(shellcheck.status, 0, shellcheck.stdout);
  const withEnv = await cli(['config', '--wrapper-env'], env, root);
  t.match(withEnv.stdout, /\.zprofile[\s\S]*\.bashrc/);
  writeFileSync(wrapper, withEnv.stdout);
  const shellcheckEnv = spawnSync('shellcheck', ['-x', '--severity=style', wrapper], { encoding: 'utf8' });
  if (!shellcheckEnv.error) t.equal(shellcheckEnv.status, 0, shellcheckEnv.stdout);
});

t.test(
  '--wrapper on a terminal writes <root>/<name>.sh (+x) and refuses to overwrite it',
  { skip: spawnSync('script', ['--version']).error ? 'script(1) is not installed' : false },
  async (t) => {
    const onTty = (flag = '--wrapper') => {
      const command = [binCommand, ...prefix, 'config', flag].map((word) => `'${word}'`).join(' ');
      return spawnSync('script', ['-qec', command, '/dev/null'], { cwd: root, env, encoding: 'utf8' });
    };
    const first = onTty();
    t.equal(first.status, 0, first.stdout);
    const path = join(root, 'cfg-server.sh');
    t.ok(existsSync(path));
    t.equal(statSync(path).mode & 0o777, 0o755);
    t.match(readFileSync(path, 'utf8'), /export MCPBASH_PROJECT_ROOT="\$\{script_dir\}"/);
    const second = onTty();
    t.equal(second.status, 1);
    t.match(second.stdout, /already exists[\s\S]*redirect the output: mcp-bash config --wrapper \| cat/);
    const withEnv = onTty('--wrapper-env');
    t.equal(withEnv.status, 1);
    t.match(withEnv.stdout, /redirect the output: mcp-bash config --wrapper-env \| cat/, 'the flag that was given');
  },
);

t.test('--project-root picks the project from anywhere; without a project config refuses', async (t) => {
  const elsewhere = tempDir();
  const run = await cli(['config', '--json', '--project-root', root], env, elsewhere);
  t.equal(run.code, 0, run.stderr);
  t.match(parseJson(t, run.stdout, 'config --json'), { name: 'cfg-server', env: { MCPBASH_PROJECT_ROOT: root } });
  const fromEnv = await cli(['config', '--json'], { ...env, MCPBASH_PROJECT_ROOT: root }, elsewhere);
  t.match(
    parseJson(t, fromEnv.stdout, 'config --json'),
    { env: { MCPBASH_PROJECT_ROOT: root } },
    'MCPBASH_PROJECT_ROOT',
  );
  const none = await cli(['config', '--json'], env, elsewhere);
  t.equal(none.code, 1);
  t.equal(none.stdout, '');
  t.match(none.stderr, /no mcp-bash project found[\s\S]*--project-root/, 'the error says what to do next');
});

t.test(
  'the command is the path mcp-bash was started by, symlinks kept (a Homebrew link survives upgrades)',
  { skip: prefix.length > 0 ? 'the bundle runs under node' : false },
  async (t) => {
    // Homebrew's layout: bin/mcp-bash -> ../Cellar/mcp-bash/2.0.0/bin/mcp-bash (the real file).
    const prefixDir = tempDir();
    const cellarBin = join(prefixDir, 'Cellar/mcp-bash/2.0.0/bin');
    mkdirSync(cellarBin, { recursive: true });
    mkdirSync(join(prefixDir, 'bin'));
    symlinkSync(binCommand, join(cellarBin, 'mcp-bash'));
    const link = join(prefixDir, 'bin/mcp-bash');
    symlinkSync('../Cellar/mcp-bash/2.0.0/bin/mcp-bash', link);
    const run = (command: string, args: string[], options: { argv0?: string } = {}) =>
      spawnSync(command, args, {
        cwd: root,
        env: { ...env, PATH: `${join(prefixDir, 'bin')}${delimiter}${env.PATH ?? ''}` },
        encoding: 'utf8',
        ...options,
      });
    for (const command of [link, 'mcp-bash']) {
      const json = run(command, ['config', '--json']);
      t.match(parseJson(t, json.stdout, 'config --json'), { command: link }, `started as ${command}`);
      t.match(run(command, ['config', '--inspector']).stdout, new RegExp(` -- ${link}\n`), '--inspector');
      t.match(run(command, ['config', '--wrapper']).stdout, `elif [ -x ${link} ]; then\n\tmcpbash=(${link})`);
    }
    // argv0 is the parent's choice: one that is not this binary falls back to the real path.
    const bogus = run(link, ['config', '--json'], { argv0: 'no-such-mcp-bash' });
    t.match(parseJson(t, bogus.stdout, 'config --json'), { command: realpathSync(binCommand) });
  },
);
