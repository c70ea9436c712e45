import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import t from 'tap';
import { repoRoot } from '../../helpers/paths.js';
import { isolatedEnv, runBinary } from '../../helpers/run-binary.js';

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
  t.match(run.stderr, /Unknown command: frobnicate/);
  t.match(run.stderr, /mcp-bash --help/);
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
