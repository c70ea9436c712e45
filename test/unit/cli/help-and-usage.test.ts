import { PassThrough } from 'node:stream';
import t from 'tap';
import type { AssetBundle } from '../../../src/assets/extract-archive.js';
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

const commands = [
  'init',
  'new',
  'scaffold',
  'run-tool',
  'validate',
  'config',
  'registry',
  'bundle',
  'vendor',
  'publish',
  'health',
  'doctor',
  'debug',
  'ui-template',
];

t.test('the global help lists every command, not the ready alias', async (t) => {
  const help = await run(['--help']);
  for (const name of commands) t.match(help.stdout, new RegExp(`^ {2}${name} `, 'm'), name);
  t.notMatch(help.stdout, /^ {2}ready /m);
});

t.test('every command has --help (usage, summary, options) on stdout, exit 0', async (t) => {
  for (const name of commands) {
    const help = await run([name, '--help']);
    t.equal(help.code, 0, name);
    t.match(help.stdout, new RegExp(`^Usage: mcp-bash ${name}[\\s\\S]*\\n\\n.+\\n\\n`), name);
    t.equal(help.stderr, '', `${name} --help is quiet on stderr`);
  }
  t.match((await run(['registry', '--help'])).stdout, /Subcommands:\n {2}refresh +rebuild[\s\S]*\n {2}status /);
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
    const lines = [
      ['init', '--nope'],
      ['new', 'x', '--nope'],
      ['scaffold', 'tool', 'x', '--nope'],
      ['run-tool', 'x', '--nope'],
      ['validate', '--nope'],
      ['config', '--nope'],
      ['registry', 'refresh', '--nope'],
      ['registry', 'status', '--nope'],
      ['bundle', '--nope'],
      ['vendor', '--nope'],
      ['publish', 'x.mcpb', '--nope'],
      ['health', '--nope'],
      ['doctor', '--nope'],
      ['debug', '--nope'],
      ['ui-template', 'form', '--nope'],
    ];
    for (const argv of lines) {
      const result = await run(argv);
      t.equal(result.code, usageStatus[argv[0] as string] ?? 2, argv.join(' '));
      t.equal(result.stdout, '', `${argv.join(' ')}: stdout`);
      t.match(result.stderr, /unknown option --nope\nUsage: mcp-bash /, argv.join(' '));
    }
  },
);
