import { chmodSync, existsSync, mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import t from 'tap';
import { repoRoot } from '../../helpers/paths.js';
import { isolatedEnv, runBinary } from '../../helpers/run-binary.js';

const version = JSON.parse(readFileSync(join(repoRoot, 'package.json'), 'utf8')).version as string;
const isRoot = process.getuid?.() === 0;
/** A quick command that needs the framework files (the built-in jq lives there). */
const EXTRACTING = ['jq', '-n', '1'];

/** The single extraction dir under a data dir, or undefined. */
function extractionIn(dataDir: string): string | undefined {
  const parent = join(dataDir, 'mcp-bash');
  if (!existsSync(parent)) return undefined;
  const dirs = readdirSync(parent).filter((name) => name.startsWith(`${version}-`));
  return dirs.length === 1 ? join(parent, dirs[0] as string) : undefined;
}

t.test('--version touches nothing on disk', async (t) => {
  const env = isolatedEnv();
  const run = await runBinary(['--version'], { env });
  t.equal(run.code, 0);
  t.equal(run.stdout, `mcp-bash ${version}\n`);
  t.same(readdirSync(env.HOME as string), [], 'the HOME stays empty');
});

t.test('a first run with an empty HOME extracts the framework files', async (t) => {
  const env = isolatedEnv();
  const run = await runBinary(EXTRACTING, { env });
  t.equal(run.code, 0);
  t.equal(run.stdout, '1\n');
  const home = extractionIn(join(env.HOME as string, '.local', 'share'));
  t.ok(home, 'one <version>-<hash> dir under ~/.local/share/mcp-bash');
  if (!home) return;
  t.match(home, new RegExp(`${version.replace(/\./g, '\\.')}-[0-9a-f]{12}$`));
  t.ok(existsSync(join(home, 'sdk', 'tool-sdk.sh')), 'the SDK is there');
  t.equal(readFileSync(join(home, 'VERSION'), 'utf8').trim(), version);
  const marker = JSON.parse(readFileSync(join(home, '.mcpbash-assets.json'), 'utf8'));
  t.equal(marker.version, version);
  t.same(readdirSync(join(home, '..')).length, 1, 'no staging dirs are left');
});

t.test('a later run does no extraction work', async (t) => {
  const env = isolatedEnv({ MCPBASH_LOG_STARTUP: 'true' });
  const first = await runBinary(EXTRACTING, { env });
  t.match(first.stderr, /extracted framework files to/);
  const home = extractionIn(join(env.HOME as string, '.local', 'share')) as string;
  const before = statSync(join(home, '.mcpbash-assets.json')).mtimeMs;
  const second = await runBinary(EXTRACTING, { env });
  t.equal(second.code, 0);
  t.notMatch(second.stderr, /extracted framework files/, 'no extraction reported');
  t.match(second.stderr, /framework files at .+ \(extracted before\)/, 'MCPBASH_LOG_STARTUP still says where');
  t.equal(statSync(join(home, '.mcpbash-assets.json')).mtimeMs, before, 'the marker is untouched');
});

t.test('XDG_DATA_HOME is honoured, a relative one ignored', async (t) => {
  const dir = t.testdir();
  const env = isolatedEnv({ XDG_DATA_HOME: join(dir, 'xdg') });
  await runBinary(EXTRACTING, { env });
  t.ok(extractionIn(join(dir, 'xdg')), 'extracted under $XDG_DATA_HOME/mcp-bash');

  const relativeEnv = isolatedEnv({ XDG_DATA_HOME: 'relative/xdg' });
  await runBinary(EXTRACTING, { env: relativeEnv, cwd: dir });
  t.notOk(existsSync(join(dir, 'relative')), 'nothing written under the relative path');
  t.ok(extractionIn(join(relativeEnv.HOME as string, '.local', 'share')), 'the default location is used');
});

t.test('concurrent first runs all succeed and leave one complete copy', async (t) => {
  const env = isolatedEnv();
  const runs = await Promise.all(Array.from({ length: 8 }, () => runBinary(EXTRACTING, { env })));
  for (const run of runs) {
    t.equal(run.code, 0);
    t.equal(run.stdout, '1\n');
    t.equal(run.stderr, '');
  }
  const parent = join(env.HOME as string, '.local', 'share', 'mcp-bash');
  const entries = readdirSync(parent);
  t.equal(entries.length, 1, `exactly one entry remains: ${entries.join(', ')}`);
  const home = join(parent, entries[0] as string);
  t.ok(existsSync(join(home, '.mcpbash-assets.json')));
  t.ok(existsSync(join(home, 'sdk', 'tool-sdk.sh')));
});

t.test('a corrupt leftover is replaced', async (t) => {
  const env = isolatedEnv();
  await runBinary(EXTRACTING, { env });
  const home = extractionIn(join(env.HOME as string, '.local', 'share')) as string;
  writeFileSync(join(home, '.mcpbash-assets.json'), '{"truncated":');
  writeFileSync(join(home, 'sdk', 'tool-sdk.sh'), '');
  const run = await runBinary(EXTRACTING, { env: { ...env, MCPBASH_LOG_STARTUP: 'true' } });
  t.equal(run.code, 0);
  t.match(run.stderr, /extracted framework files/);
  t.ok(JSON.parse(readFileSync(join(home, '.mcpbash-assets.json'), 'utf8')).contentHash, 'the marker is whole again');
  t.not(readFileSync(join(home, 'sdk', 'tool-sdk.sh'), 'utf8'), '', 'the SDK is restored');
});

t.test('a data dir that cannot be written falls back to a private temp dir', async (t) => {
  const dir = t.testdir();
  const tmp = join(dir, 'tmp');
  mkdirSync(tmp);
  // A file where the mcp-bash directory should be: mkdir fails even for root.
  const xdg = join(dir, 'xdg');
  mkdirSync(xdg);
  writeFileSync(join(xdg, 'mcp-bash'), 'in the way');
  const env = isolatedEnv({ XDG_DATA_HOME: xdg, TMPDIR: tmp });
  const run = await runBinary(EXTRACTING, { env });
  t.equal(run.code, 0);
  t.equal(run.stdout, '1\n');
  const privateDir = join(tmp, `mcp-bash-${process.getuid?.() ?? 'user'}`);
  const fallback = readdirSync(privateDir).filter((name) => name.startsWith(`${version}-`));
  t.equal(fallback.length, 1, 'extracted under <tmp>/mcp-bash-<uid>/');
  if (process.platform !== 'win32') t.equal(statSync(privateDir).mode & 0o777, 0o700, 'the fallback dir is private');
  // doctor names the real cause (a file in the way), not "not writable", and how to clear it.
  const doctor = JSON.parse((await runBinary(['doctor', '--json'], { env, cwd: dir })).stdout);
  const finding = doctor.findings.find((item: { id: string }) => item.id === 'framework.fallback');
  t.match(
    finding?.message,
    `cannot use ${join(xdg, 'mcp-bash')}: cannot mkdir ${join(xdg, 'mcp-bash')}: file already exists`,
  );
  t.match(finding?.suggestedCommand, /^mv .*mcp-bash .*mcp-bash\.old/);
});

t.test(
  'a read-only data dir falls back to a private temp dir',
  { skip: isRoot ? 'root ignores directory permissions' : false },
  async (t) => {
    const dir = t.testdir();
    const tmp = join(dir, 'tmp');
    const xdg = join(dir, 'xdg');
    mkdirSync(tmp);
    mkdirSync(xdg);
    chmodSync(xdg, 0o555);
    t.teardown(() => chmodSync(xdg, 0o755));
    const run = await runBinary(EXTRACTING, { env: isolatedEnv({ XDG_DATA_HOME: xdg, TMPDIR: tmp }) });
    t.equal(run.code, 0);
    t.same(readdirSync(xdg), [], 'nothing written to the read-only dir');
    t.equal(readdirSync(join(tmp, `mcp-bash-${process.getuid?.()}`)).length, 1);
  },
);

t.test('MCPBASH_HOME pointing at the source tree overrides extraction', async (t) => {
  const env = isolatedEnv({ MCPBASH_HOME: repoRoot });
  const run = await runBinary(EXTRACTING, { env });
  t.equal(run.code, 0);
  t.notOk(existsSync(join(env.HOME as string, '.local')), 'nothing extracted');
});

t.test('MCPBASH_HOME without an SDK is ignored in favour of the embedded files', async (t) => {
  const env = isolatedEnv({ MCPBASH_HOME: t.testdir(), MCPBASH_LOG_STARTUP: 'true' });
  const run = await runBinary(EXTRACTING, { env });
  t.equal(run.code, 0);
  t.match(run.stderr, /is not an mcp-bash 2.x framework directory/);
  t.ok(extractionIn(join(env.HOME as string, '.local', 'share')));
});
