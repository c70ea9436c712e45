import { PassThrough } from 'node:stream';
import t from 'tap';
import type { AssetBundle } from '../../../src/assets/extract-archive.js';
import { commandTable } from '../../../src/cli/commands/index.js';
import { runCli } from '../../../src/cli/dispatch.js';
import { repoRoot } from '../../helpers/paths.js';

/** Runs the dispatcher in-process against this checkout's framework files (MCPBASH_HOME). */
async function run(argv: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  const stdout = new PassThrough();
  const stderr = new PassThrough();
  let out = '';
  let err = '';
  stdout.on('data', (chunk: Buffer) => {
    out += chunk.toString();
  });
  stderr.on('data', (chunk: Buffer) => {
    err += chunk.toString();
  });
  const assets = {
    version: '0',
    contentHash: 'x',
    fileCount: 0,
    sentinel: 'x',
    archive: () => {
      throw new Error('not extracted in tests');
    },
  } satisfies AssetBundle;
  const code = await runCli(argv, {
    io: {
      stdin: new PassThrough(),
      stdout,
      stderr,
      env: { MCPBASH_HOME: repoRoot, NO_COLOR: '1', PATH: process.env.PATH },
      cwd: repoRoot,
    },
    assets,
  });
  return { code, stdout: out, stderr: err };
}

/** The command table is the list: a command added to it is checked here without editing this file. */
const listed = commandTable.filter((entry) => !entry.hidden).map((entry) => entry.name);
const every = commandTable.map((entry) => entry.name);

t.test('the command table has the commands 1.x had and the ones 2.x added', async (t) => {
  for (const name of ['init', 'new', 'scaffold', 'run-tool', 'validate', 'config', 'registry', 'health', 'doctor']) {
    t.ok(listed.includes(name), `1.x's ${name}`);
  }
  for (const name of ['bundle', 'vendor', 'publish', 'debug', 'jq', 'ui-template'])
    t.ok(listed.includes(name), `2.x's ${name}`);
  t.same(
    commandTable.filter((entry) => entry.hidden).map((entry) => entry.name),
    ['ready', 'jq-service', 'file-provider'],
    'hidden: the ready alias and the internal jq-service and file-provider',
  );
});

t.test('the global help lists every command of the table, in order, and no hidden one', async (t) => {
  const help = await run(['--help']);
  const section = help.stdout.split('\nCommands:\n')[1]?.split('\n\n')[0] ?? '';
  const shown = [...section.matchAll(/^ {2}([a-z][a-z-]*) {2,}\S/gm)].map((match) => match[1]);
  t.same(shown, listed);
  t.notMatch(help.stdout, /^ {2}(ready|jq-service|file-provider) /m);
});

t.test('every command has --help (usage, summary, options) on stdout, exit 0', async (t) => {
  for (const name of every) {
    const help = await run([name, '--help']);
    t.equal(help.code, 0, name);
    // `ready` is an alias: its help is health's. The internal jq-service has no options.
    const usageName = name === 'ready' ? 'health' : name;
    const shape = name === 'jq-service' ? '[^\\n]*\\n\\n.+\\n$' : '[\\s\\S]*\\n\\n.+\\n\\n';
    t.match(help.stdout, new RegExp(`^Usage: mcp-bash ${usageName}${shape}`), name);
    t.equal(help.stderr, '', `${name} --help is quiet on stderr`);
  }
  t.match((await run(['registry', '--help'])).stdout, /Subcommands:\n {2}refresh +Rebuild[\s\S]*\n {2}status /);
});

t.test('subcommands have their own --help', async (t) => {
  const cases: Array<[string[], RegExp]> = [
    [['registry', 'refresh', '--help'], /^Usage: mcp-bash registry refresh \[--project-root DIR\][\s\S]*--filter PATH/],
    [['registry', 'status', '-h'], /^Usage: mcp-bash registry status/],
    [['scaffold', 'tool', '--help'], /^Usage: mcp-bash scaffold tool <name>[\s\S]*smoke\.sh/],
    [['scaffold', 'completion', '--help'], /register\.json/],
    [['scaffold', 'test', '--help'], /^Usage: mcp-bash scaffold test \[--project-root DIR\]/],
    [['scaffold', 'ui', '--help'], /^Usage: mcp-bash scaffold ui <name>[\s\S]*--tool TOOL/],
  ];
  for (const [argv, pattern] of cases) {
    const help = await run(argv);
    t.equal(help.code, 0, argv.join(' '));
    t.match(help.stdout, pattern, argv.join(' '));
  }
});

t.test(
  "unknown flags are usage errors: the message, the usage line, the command's usage exit status, nothing on stdout",
  async (t) => {
    // 1.x exits 1 for a malformed init, new, scaffold or registry command line; 2 elsewhere.
    const usageStatus: Record<string, number> = { init: 1, new: 1, scaffold: 1, registry: 1 };
    // The rest of a command line each command needs before it looks at options.
    const operands: Record<string, string[]> = {
      new: ['x'],
      scaffold: ['tool', 'x'],
      'run-tool': ['x'],
      registry: ['refresh'],
      publish: ['x.mcpb'],
      'ui-template': ['form'],
      'file-provider': ['file:///x'],
    };
    // jq hands its options to jq, which answers an unknown one itself (checked below);
    // jq-service is started by the server only, with no options.
    const lines = every
      .filter((name) => name !== 'jq' && name !== 'jq-service')
      .map((name) => [name, ...(operands[name] ?? []), '--nope']);
    lines.push(['registry', 'status', '--nope']);
    for (const argv of lines) {
      const result = await run(argv);
      t.equal(result.code, usageStatus[argv[0] as string] ?? 2, argv.join(' '));
      t.equal(result.stdout, '', `${argv.join(' ')}: stdout`);
      t.match(result.stderr, /unknown option --nope\nUsage: mcp-bash /, argv.join(' '));
    }
    const jq = await run(['jq', '--nope']);
    t.equal(jq.code, 2, "jq --nope: jq's usage status");
    t.match(jq.stderr, /^jq: Unknown option --nope\n/, "jq --nope: jq's own message");
  },
);

t.test('a mistyped option gets "did you mean", in its --no- form too, whatever the command', async (t) => {
  const cases: Array<[string[], string]> = [
    [['new', 'x', '--no-helo'], '--no-hello'],
    [['init', '--no-helo'], '--no-hello'],
    [['init', '--nmae'], '--name'],
    [['run-tool', 'x', '--no-refesh'], '--no-refresh'],
    [['registry', 'refresh', '--no-notfy'], '--no-notify'],
    [['validate', '--stirct'], '--strict'],
  ];
  for (const [argv, meant] of cases) {
    const result = await run(argv);
    t.match(result.stderr, `unknown option ${argv.at(-1)} (did you mean ${meant}?)\n`, argv.join(' '));
  }
});

t.test('help [command] prints what --help and <command> --help print; version what --version prints', async (t) => {
  const pairs: Array<[string[], string[]]> = [
    [['help'], ['--help']],
    [['help', 'help'], ['--help']],
    [['help', 'version'], ['--help']],
    [
      ['help', 'validate'],
      ['validate', '--help'],
    ],
    [
      ['--help', 'validate'],
      ['validate', '--help'],
    ],
    [
      ['-h', 'registry', 'refresh'],
      ['registry', 'refresh', '--help'],
    ],
    [
      ['help', 'ready'],
      ['health', '--help'],
    ],
    [
      ['help', 'registry', 'refresh'],
      ['registry', 'refresh', '--help'],
    ],
    [
      ['help', 'scaffold', 'tool'],
      ['scaffold', 'tool', '--help'],
    ],
    [['version'], ['--version']],
    [
      ['version', '--help'],
      ['help', 'version'],
    ],
  ];
  for (const [words, flags] of pairs) {
    const [byWord, byFlag] = [await run(words), await run(flags)];
    t.equal(byWord.code, 0, words.join(' '));
    t.equal(byWord.stdout, byFlag.stdout, `${words.join(' ')} = ${flags.join(' ')}`);
    t.equal(byWord.stderr, byFlag.stderr, `${words.join(' ')}: the same stderr`);
  }
  t.match((await run(['help', 'validate'])).stdout, /^Usage: mcp-bash validate/);
  t.match((await run(['version'])).stdout, /^mcp-bash \S+\n$/);
  const unknown = await run(['help', 'valdiate']);
  t.equal(unknown.code, 2);
  t.match(unknown.stderr, /Unknown command: valdiate \(did you mean validate\?\)/);
  const global = (await run(['--help'])).stdout;
  t.match(global, /mcp-bash help <command>/, 'the global help names the words');
  t.match(global, /mcp-bash version/);
});

t.test('a shortened or mistyped command gets its suggestion, help and version included', async (t) => {
  const cases: Array<[string, string]> = [
    ['run', 'run-tool'],
    ['hlep', 'help'],
    ['verison', 'version'],
  ];
  for (const [typed, meant] of cases) {
    const result = await run([typed]);
    t.equal(result.code, 2, typed);
    t.match(result.stderr, `Unknown command: ${typed} (did you mean ${meant}?)\n`, typed);
  }
});

/** Every help page: each command's, and each subcommand's (`registry refresh --help`). */
async function helpPages(): Promise<Array<[string, string]>> {
  const lines = [...every.map((name) => [name]), ['registry', 'refresh'], ['registry', 'status']];
  lines.push(...['tool', 'prompt', 'resource', 'completion', 'test', 'ui'].map((kind) => ['scaffold', kind]));
  const pages: Array<[string, string]> = [];
  for (const words of lines) pages.push([words.join(' '), (await run([...words, '--help'])).stdout]);
  return pages;
}

t.test('summaries start with a capital letter: commands, subcommands, every help page', async (t) => {
  for (const entry of commandTable) t.match(entry.summary, /^[A-Z]/, `${entry.name} in the command table`);
  for (const [what, page] of await helpPages()) {
    t.match(page.split('\n')[2], /^[A-Z]/, `${what} --help`);
    const listed = page.split('\nSubcommands:\n')[1]?.split('\n\n')[0] ?? '';
    for (const line of listed.split('\n').filter(Boolean)) t.match(line, /^ {2}\S+ +[A-Z]/, `${what}: ${line}`);
  }
  t.match((await run(['--help'])).stdout, /^mcp-bash \S+ - .* over stdio or HTTP\n/, 'serve --http is a transport too');
});

t.test("every option a help page lists is in that page's usage line", async (t) => {
  for (const [what, page] of await helpPages()) {
    const [usage = '', ...rest] = page.split('\n');
    const listed = rest.join('\n').matchAll(/^ {2}(?:-[a-zA-Z], )?(--[a-z][a-z-]*)/gm);
    for (const [, flag = ''] of listed) t.ok(usage.includes(flag), `${what}: ${flag} in "${usage}"`);
  }
});
