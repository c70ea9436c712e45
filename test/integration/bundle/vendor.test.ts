/**
 * `mcp-bash vendor`: a self-contained runtime in <project>/.mcp-bash/ with vendor.json and a
 * run-server.sh that serves the project; --verify, --dry-run, and the refusal to replace a
 * vendored tree without --upgrade (asked on a terminal).
 */
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { appendFileSync, existsSync, readFileSync, realpathSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import t, { type Test } from 'tap';
import { cli, sharedCliEnv } from '../../helpers/cli-projects.js';
import { fixtureProject } from '../../helpers/fixtures.js';
import { binaryPath, repoRoot } from '../../helpers/paths.js';
import { scratchDir } from '../../helpers/scratch.js';
import { connectSdkClient } from '../../helpers/sdk-client.js';

const env = sharedCliEnv();
const cjs = join(repoRoot, 'dist', 'mcp-bash.cjs');
const sha256 = (data: Buffer | string) => createHash('sha256').update(data).digest('hex');

/** 1.x's tree hash, computed here from the files: sorted `relpath:filehash\n` lines. */
function expectedTreeHash(dir: string, paths: string[]): string {
  return sha256(
    [...paths]
      .sort()
      .map((path) => `${path}:${sha256(readFileSync(join(dir, path)))}\n`)
      .join(''),
  );
}

async function servesThroughWrapper(t: Test, project: string): Promise<void> {
  const home = scratchDir('mcpbash-fresh-home-');
  const { client } = await connectSdkClient({
    env: {
      PATH: process.env.PATH ?? '/usr/bin:/bin',
      HOME: home,
      MCPBASH_TOOL_ALLOWLIST: '*',
      MCPBASH_TOOL_ENV_MODE: 'allowlist',
      MCPBASH_TOOL_ENV_ALLOWLIST: 'DEMO_GREETING',
      DEMO_GREETING: 'Hi',
    },
    launch: { command: join(project, 'run-server.sh'), args: [] },
  });
  try {
    t.same(
      (await client.listTools()).tools.map((tool) => tool.name),
      ['greet'],
      'run-server.sh serves the project',
    );
    const call = await client.callTool({ name: 'greet', arguments: { name: 'Bo' } });
    t.match(call.structuredContent, { result: { message: 'Hi, Bo!' } });
  } finally {
    await client.close();
  }
}

t.test(
  'the native binary vendors itself; verify, refuse, upgrade',
  { skip: binaryPath.endsWith('.cjs') ? 'needs the native binary' : false },
  async (t) => {
    const project = fixtureProject('bundle-demo');
    const vendorDir = join(project, '.mcp-bash');
    const dry = await cli(['vendor', '--dry-run'], env, project);
    t.equal(dry.code, 0);
    t.match(dry.stdout, /Would create \.mcp-bash\/ \(binary runtime\):\n {2}write \.mcp-bash\/bin\/mcp-bash\n/);
    t.match(dry.stdout, /create run-server\.sh/);
    t.notOk(existsSync(vendorDir) || existsSync(join(project, 'run-server.sh')), '--dry-run writes nothing');

    const run = await cli(['vendor'], env, project);
    t.equal(run.code, 0, run.stderr);
    t.match(run.stdout, /large for a git repository: '--runtime node'/, 'says what the binary costs a repository');
    t.equal(statSync(join(vendorDir, 'bin', 'mcp-bash')).size, statSync(binaryPath).size, 'the binary, copied');
    t.equal(statSync(join(vendorDir, 'bin', 'mcp-bash')).mode & 0o777, 0o755);
    t.equal(statSync(join(project, 'run-server.sh')).mode & 0o777, 0o755);
    const manifest = JSON.parse(readFileSync(join(vendorDir, 'vendor.json'), 'utf8'));
    t.match(manifest, {
      version: '2.0.0',
      runtime: 'binary',
      vendored_from: realpathSync(binaryPath),
      vendored_at: /^\d{4}-\d\d-\d\dT/,
    });
    t.same(Object.keys(manifest.files).sort(), ['VERSION', 'bin/mcp-bash']);
    t.equal(manifest.sha256, expectedTreeHash(vendorDir, ['VERSION', 'bin/mcp-bash']), "1.x's tree hash");
    await servesThroughWrapper(t, project);

    t.equal((await cli(['vendor', '--verify'], env, project)).code, 0, '--verify: unchanged');
    appendFileSync(join(vendorDir, 'VERSION'), 'tampered\n');
    writeFileSync(join(vendorDir, 'extra'), 'x');
    const changed = await cli(['vendor', '--verify'], env, project);
    t.equal(changed.code, 1, '--verify: any change exits 1');
    t.match(changed.stdout, /changed VERSION\n {2}added extra\n/);
    rmSync(join(vendorDir, 'bin', 'mcp-bash'));
    t.match((await cli(['vendor', '--verify'], env, project)).stdout, /missing bin\/mcp-bash/);

    const refused = await cli(['vendor'], env, project);
    t.equal(refused.code, 1, 'an existing tree is not replaced off a terminal');
    t.match(refused.stderr, /already holds a vendored mcp-bash; left as it is\nPass --upgrade to replace it\./);
    t.ok(existsSync(join(vendorDir, 'extra')), 'and it is left alone');
    const upgraded = await cli(['vendor', '--upgrade'], env, project);
    t.equal(upgraded.code, 0);
    t.notOk(existsSync(join(vendorDir, 'extra')), '--upgrade replaces the tree');
    t.equal((await cli(['vendor', '--verify'], env, project)).code, 0);
    t.equal(
      (await cli(['vendor', '--verify', '--output', join(project, 'nothing')], env, project)).code,
      1,
      'no vendor.json: 1',
    );
  },
);

t.test(
  'on a terminal the user is asked before a vendored tree is replaced',
  { skip: !existsSync('/usr/bin/script') && 'needs script(1)' },
  async (t) => {
    const project = fixtureProject('bundle-demo');
    // The small node runtime keeps this quick; the question is the same for both.
    const vendor = `${process.execPath} ${cjs} vendor --runtime node`;
    t.equal(spawnSync('sh', ['-c', vendor], { cwd: project, env, stdio: 'ignore' }).status, 0);
    writeFileSync(join(project, '.mcp-bash', 'marker'), 'x');
    // script(1) gives the command a pseudo-terminal; the answer comes in on its stdin.
    const ask = (answer: string) =>
      spawnSync('script', ['-qec', vendor, '/dev/null'], {
        cwd: project,
        env,
        input: `${answer}\n`,
        encoding: 'utf8',
        timeout: 30_000,
      });
    const no = ask('n');
    t.equal(no.status, 1, 'no: refused');
    t.match(no.stdout, /already holds a vendored mcp-bash\. Replace it\? \[y\/N\]/);
    t.ok(existsSync(join(project, '.mcp-bash', 'marker')));
    const yes = ask('y');
    t.equal(yes.status, 0, `yes: replaced ${yes.stdout}`);
    t.notOk(existsSync(join(project, '.mcp-bash', 'marker')));
  },
);

t.test('under node: mcp-bash.cjs and a launcher; --runtime binary needs the binary', async (t) => {
  const project = fixtureProject('bundle-demo');
  const node = (args: string[]) =>
    spawnSync(process.execPath, [cjs, ...args], { cwd: project, env, encoding: 'utf8', timeout: 30_000 });
  const binary = node(['vendor', '--runtime', 'binary']);
  t.equal(binary.status, 1);
  t.match(binary.stderr, /--runtime binary needs the native mcp-bash binary/);
  const run = node(['vendor', '--output', 'vendored']);
  t.equal(run.status, 0, run.stderr);
  t.notMatch(run.stdout, /large for a git repository/, 'the bundle is small: no size note');
  const dir = join(project, 'vendored');
  const hint = /Check it later with '(mcp-bash vendor --verify[^']*)'/.exec(run.stdout)?.[1] ?? '';
  t.equal(hint, `mcp-bash vendor --verify --output ${dir}`, 'the hint names --output');
  const verify = node(hint.split(' ').slice(1));
  t.equal(verify.status, 0, `the hint works as printed: ${verify.stdout}${verify.stderr}`);
  t.match(JSON.parse(readFileSync(join(dir, 'vendor.json'), 'utf8')), { runtime: 'node' });
  t.match(readFileSync(join(dir, 'bin', 'mcp-bash'), 'utf8'), /^#!\/bin\/sh\n/);
  t.match(readFileSync(join(project, 'run-server.sh'), 'utf8'), /exec "\$here\/vendored\/bin\/mcp-bash" "\$@"/);
  const version = spawnSync(join(dir, 'bin', 'mcp-bash'), ['--version'], { env, encoding: 'utf8' });
  t.equal(version.stdout, 'mcp-bash 2.0.0\n', 'the launcher runs mcp-bash.cjs with node');
  // MCPBASH_NODE names another node (D226): a stand-in that says what it was asked to run.
  const fakeNode = join(scratchDir('mcpbash-fake-node-'), 'node');
  writeFileSync(fakeNode, '#!/bin/sh\nprintf "fake node: %s\\n" "$*"\n', { mode: 0o755 });
  const picked = spawnSync(join(dir, 'bin', 'mcp-bash'), ['--version'], {
    env: { ...env, MCPBASH_NODE: fakeNode },
    encoding: 'utf8',
  });
  t.match(picked.stdout, /^fake node: \S+\/lib\/mcp-bash\.cjs --version\n$/, 'MCPBASH_NODE is the node it runs');
  await servesThroughWrapper(t, project);
});
