import { spawnSync } from 'node:child_process';
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import t from 'tap';
import { commandTable } from '../../../src/cli/commands/index.js';
import { COMMAND_SWITCHES } from '../../../src/cli/leading-flags.js';
import { fixtureProject } from '../../helpers/fixtures.js';
import { binaryCommand, repoRoot } from '../../helpers/paths.js';
import { isolatedEnv, runBinary, toolEnv } from '../../helpers/run-binary.js';
import { scratchDir } from '../../helpers/scratch.js';

const hasScript = () => process.platform === 'linux' && !spawnSync('script', ['--version']).error;

const version = JSON.parse(readFileSync(join(repoRoot, 'package.json'), 'utf8')).version as string;

t.test('--version and -v print "mcp-bash <version>" and exit 0', async (t) => {
  for (const flag of ['--version', '-v']) {
    const run = await runBinary([flag]);
    t.equal(run.code, 0, flag);
    t.equal(run.stdout, `mcp-bash ${version}\n`, flag);
    t.equal(run.stderr, '', `${flag} is quiet on stderr`);
  }
});

t.test('--help lists the usage and global options and exits 0', async (t) => {
  for (const flag of ['--help', '-h']) {
    const run = await runBinary([flag]);
    t.equal(run.code, 0);
    t.match(run.stdout, /^mcp-bash \S+ - /);
    t.match(run.stdout, /Usage:/);
    t.match(run.stdout, /-v, --version/);
  }
});

t.test('an unknown command names itself, points at --help, and exits 2', async (t) => {
  const run = await runBinary(['frobnicate']);
  t.equal(run.code, 2);
  t.equal(run.stdout, '', 'nothing on stdout');
  t.match(run.stderr, /Unknown command: frobnicate\n/);
  t.notMatch(run.stderr, /did you mean/, 'no suggestion when nothing is close');
  t.match(run.stderr, /mcp-bash --help/);
  const typo = await runBinary(['valdiate']);
  t.equal(typo.code, 2);
  t.match(typo.stderr, /Unknown command: valdiate \(did you mean validate\?\)/);
});

t.test('a mistyped global flag is an error with a suggestion (exit 2), not a server waiting on input', async (t) => {
  const cases: Array<[string, string]> = [
    ['--verison', '--version'],
    ['-V', '-v'],
    ['--helth', '--health'],
    ['--hlep', '--help'],
  ];
  for (const [typed, meant] of cases) {
    // stdin stays open: were the server started, the run would only end at the timeout.
    const run = await runBinary([typed], { timeoutMs: 15_000, keepStdinOpen: true });
    t.equal(run.code, 2, typed);
    t.equal(run.stdout, '', `${typed}: nothing on stdout`);
    t.match(run.stderr, new RegExp(`unknown option ${typed} \\(did you mean ${meant}\\?\\)`), typed);
  }
  const option = await runBinary(['validate', '--strcit']);
  t.equal(option.code, 2);
  t.match(option.stderr, /unknown option --strcit \(did you mean --strict\?\)/, "a command's options too");
});

t.test('options before a command are refused with the reordered command line, not a server (D227)', async (t) => {
  const project = scratchDir('mcpbash-misplaced-');
  mkdirSync(join(project, 'server.d'));
  writeFileSync(join(project, 'server.d', 'server.meta.json'), '{"name":"misplaced"}');
  const cases: Array<[string[], string]> = [
    [
      ['--project-root', '.', 'validate'],
      'put --project-root after validate\nRun: mcp-bash validate --project-root .\n',
    ],
    [['--json', 'validate'], 'put --json after validate\nRun: mcp-bash validate --json\n'],
    [
      ['--verbose', '--allow-self', 'run-tool', 'hello', '--args', '{"a":1}'],
      'put --verbose --allow-self after run-tool\n' +
        'Run: mcp-bash run-tool --verbose --allow-self hello --args \'{"a":1}\'\n',
    ],
    // A group's options are its subcommand's: they go after the subcommand.
    [
      ['--project-root', '.', 'registry', 'status'],
      'put --project-root after registry status\nRun: mcp-bash registry status --project-root .\n',
    ],
    // Options the command does not accept are named, not moved into a line that fails.
    [
      ['--verbose', 'validate'],
      ", but --verbose is not an option of validate\nRun 'mcp-bash validate --help' for its options.\n",
    ],
    [
      ['--json', '--allow-self', 'run-tool', 'hello'],
      ", but --json is not an option of run-tool\nRun 'mcp-bash run-tool --help' for its options.\n",
    ],
    [
      ['--json', 'registry', 'status'],
      ", but --json is not an option of registry status\nRun 'mcp-bash registry status --help' for its options.\n",
    ],
    [['--json', 'version'], ', but version takes no options\n'],
  ];
  for (const [args, advice] of cases) {
    // stdin stays open: were the server started, the run would only end at the timeout.
    const run = await runBinary(args, { cwd: project, timeoutMs: 15_000, keepStdinOpen: true });
    t.equal(run.code, 2, args.join(' '));
    t.equal(run.stdout, '', `${args.join(' ')}: nothing on stdout`);
    const separator = advice.startsWith(',') ? '' : ': ';
    t.equal(run.stderr, `mcp-bash: options go after the command${separator}${advice}`, args.join(' '));
  }
});

t.test('a client flag whose value is a command name still starts the server (D131, D227)', async (t) => {
  const ping = `${JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'ping' })}\n`;
  for (const args of [
    ['--log-level', 'debug'],
    ['--mode', 'serve', '--transport', 'stdio'],
    ['-c', 'config'],
  ]) {
    const run = await runBinary(args, { input: ping });
    t.equal(run.code, 0, `${args.join(' ')}: ${run.stderr}`);
    t.match(run.stderr, new RegExp(`ignoring unknown option ${args[0]}`), `${args.join(' ')}: served`);
    t.notMatch(run.stderr, /options go after the command/);
  }
});

t.test('every command says which options it accepts (the advice for misplaced options needs them)', async (t) => {
  for (const entry of commandTable) {
    const command = await entry.load();
    t.ok(command.options !== undefined || command.optionsFor !== undefined, entry.name);
  }
});

t.test("the switches the refusal knows are exactly the commands' options that take no value", async (t) => {
  const declared = new Set<string>();
  const walk = (dir: string): void => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const path = join(dir, entry.name);
      if (entry.isDirectory()) walk(path);
      else if (entry.name.endsWith('.ts')) {
        const text = readFileSync(path, 'utf8');
        for (const match of text.matchAll(/\b(?:boolean|flags): \[([^\]]*)\]/g))
          for (const name of (match[1] as string).matchAll(/'([a-z-]+)'/g)) declared.add(name[1] as string);
      }
    }
  };
  walk(join(repoRoot, 'src', 'cli'));
  walk(join(repoRoot, 'src', 'distribution'));
  t.same([...COMMAND_SWITCHES].sort(), [...declared].sort());
});

t.test(
  'an unknown flag no global resembles still starts the server when a client (not a TTY) runs us, as 1.x',
  async (t) => {
    const init = {
      jsonrpc: '2.0',
      id: 1,
      method: 'initialize',
      params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 't', version: '1' } },
    };
    const run = await runBinary(['--stdio'], { input: `${JSON.stringify(init)}\n` });
    t.equal(run.code, 0, run.stderr);
    t.match(JSON.parse(run.stdout.split('\n')[0] as string), { id: 1, result: { protocolVersion: '2025-11-25' } });
    t.match(run.stderr, /ignoring unknown option --stdio/);
  },
);

t.test('at a terminal an unknown flag is refused even without a suggestion', { skip: !hasScript() }, async (t) => {
  const { command, prefix } = binaryCommand();
  const line = [command, ...prefix, '--stdio'].map((word) => `'${word.replace(/'/g, "'\\''")}'`).join(' ');
  // util-linux script(1) gives the binary a pseudo-terminal as stdin; -e returns its exit status.
  const run = spawnSync('script', ['-qec', line, '/dev/null'], {
    env: isolatedEnv(),
    encoding: 'utf8',
    timeout: 15_000,
  });
  t.equal(run.status, 2, run.stdout);
  t.match(run.stdout, /unknown option --stdio\r?\n/);
});

t.test('a closed stdout pipe does not produce a crash report', async (t) => {
  const { spawn } = await import('node:child_process');
  const { binaryCommand } = await import('../../helpers/paths.js');
  const { command, prefix } = binaryCommand();
  const child = spawn(command, [...prefix, '--help'], { env: isolatedEnv(), stdio: ['ignore', 'pipe', 'pipe'] });
  child.stdout.destroy();
  let stderr = '';
  child.stderr.on('data', (chunk: Buffer) => {
    stderr += chunk.toString();
  });
  const code = await new Promise((resolve) => child.on('close', resolve));
  t.notMatch(stderr, /internal error|EPIPE|at /);
  t.ok(code === 0 || code === null, `exit ${String(code)}`);
});

t.test('without bash on PATH the server and run-tool stop at once, saying what to install', async (t) => {
  const emptyPath = scratchDir('mcpbash-nobash-');
  const env = isolatedEnv({ PATH: emptyPath });
  const server = await runBinary([], { env, keepStdinOpen: true, timeoutMs: 15_000 });
  t.equal(server.code, 1, 'exits instead of serving tools that cannot run');
  t.equal(server.stdout, '', 'nothing on stdout');
  t.match(server.stderr, /bash was not found on PATH: mcp-bash runs every tool, resource provider and hook with bash/);
  t.match(server.stderr, /Git for Windows .*MSYS2.*WSL/);
  const project = scratchDir('mcpbash-nobash-project-');
  mkdirSync(join(project, 'server.d'));
  writeFileSync(join(project, 'server.d', 'server.meta.json'), '{"name":"nobash"}');
  const runTool = await runBinary(['run-tool', 'hello', '--allow-self'], { env, cwd: project });
  t.equal(runTool.code, 1);
  t.match(runTool.stderr, /bash was not found on PATH/);
});

t.test('without PATH at all the server looks for bash where tools get it (/usr/bin:/bin, 1.x §3.4)', async (t) => {
  const env = toolEnv({ MCPBASH_PROJECT_ROOT: fixtureProject('tools') });
  delete env.PATH;
  const lines = [
    {
      jsonrpc: '2.0',
      id: 1,
      method: 'initialize',
      params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 't', version: '1' } },
    },
    { jsonrpc: '2.0', method: 'notifications/initialized' },
    { jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'inline-header', arguments: {} } },
  ];
  const server = await runBinary([], { env, input: `${lines.map((line) => JSON.stringify(line)).join('\n')}\n` });
  t.equal(server.code, 0, server.stderr);
  const answers = server.stdout
    .trim()
    .split('\n')
    .map((line) => JSON.parse(line));
  t.match(
    answers.find((answer) => answer.id === 2),
    { result: { isError: false } },
    'the tool ran',
  );
});

t.test('no project found: one message; exit 1, but 2 for health and registry (1.x, D128)', async (t) => {
  const nowhere = scratchDir('mcpbash-noproject-');
  const env = isolatedEnv();
  const cases: Array<[string[], number]> = [
    [['validate'], 1],
    [['run-tool', 'hello'], 1],
    [['config'], 1],
    [['scaffold', 'tool', 'x'], 1],
    [['health'], 2],
    [['registry', 'refresh'], 2],
    [['registry', 'status'], 2],
  ];
  for (const [args, code] of cases) {
    const run = await runBinary(args, { env, cwd: nowhere });
    t.equal(run.code, code, args.join(' '));
    t.match(
      run.stderr,
      /no mcp-bash project found: no server\.d\/server\.meta\.json in .* or above it/,
      args.join(' '),
    );
  }
});
