import { spawnSync } from 'node:child_process';
import {
  appendFileSync,
  existsSync,
  readdirSync,
  readFileSync,
  readlinkSync,
  realpathSync,
  rmSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { join } from 'node:path';
import t, { type Test } from 'tap';
import { doctorReportSchema } from '../../helpers/cli-output-schemas.js';
import { cli, matchesSchema, newProject, parseJson, sharedCliEnv, tempDir } from '../../helpers/cli-projects.js';
import { McpProcess } from '../../helpers/mcp-process.js';
import { binaryPath, repoRoot } from '../../helpers/paths.js';

const env = sharedCliEnv({ PATH: '/usr/bin:/bin' });
const version = JSON.parse(readFileSync(join(repoRoot, 'package.json'), 'utf8')).version as string;
const home = env.HOME as string;
const shim = join(home, '.local', 'bin', 'mcp-bash');
const self = realpathSync(binaryPath);

interface Report {
  exitCode: number;
  findings: Array<{ id: string; severity: string; fixable: boolean }>;
  proposedActions: Array<{ id: string; command?: string }>;
  actionsTaken: Array<{ id: string; ok: boolean }>;
  shim: { status: string };
  assets: { intact: boolean; missing: string[]; modified: string[] };
  project: unknown;
}

async function doctor(
  t: Test,
  args: string[],
  cwd = tempDir(),
  extraEnv: NodeJS.ProcessEnv = {},
): Promise<{ code: number | null; report: Report }> {
  const run = await cli(['doctor', '--json', ...args], { ...env, ...extraEnv }, cwd);
  const report = parseJson(t, run.stdout, 'doctor --json');
  matchesSchema(t, report, doctorReportSchema, `doctor --json ${args.join(' ')}`);
  t.equal(report.exitCode, run.code, 'exitCode is the exit status');
  return { code: run.code, report: report as never };
}

t.test('doctor --json: schema 1; --dry-run proposes the link, --fix makes it; no project is fine', async (t) => {
  const before = await doctor(t, ['--dry-run']);
  t.equal(before.code, 0);
  t.equal(before.report.shim.status, 'missing');
  t.same(
    before.report.proposedActions.map((action) => action.id),
    ['shim.ensure'],
  );
  t.same(before.report.actionsTaken, []);
  const binDir = join(home, '.local', 'bin');
  const hadBinDir = existsSync(binDir);
  rmSync(binDir, { recursive: true, force: true });
  const command = before.report.proposedActions[0]?.command ?? '';
  t.equal(spawnSync('sh', ['-c', command]).status, 0, `the proposed command works as printed: ${command}`);
  t.equal(readlinkSync(shim), self, 'even where ~/.local/bin did not exist yet');
  rmSync(shim);
  if (!hadBinDir) rmSync(binDir, { recursive: true, force: true });
  t.equal(before.report.project, null);
  t.ok(before.report.assets.intact, 'the extracted files match the binary');
  t.notOk(existsSync(shim), '--dry-run changes nothing');
  const fixed = await doctor(t, ['--fix']);
  t.equal(fixed.code, 0);
  t.same(
    fixed.report.actionsTaken.map((action) => [action.id, action.ok]),
    [['shim.ensure', true]],
  );
  t.equal(readlinkSync(shim), self);
  t.equal(fixed.report.shim.status, 'ok', 'the report after the fix');
  rmSync(shim);
  symlinkSync('/no/such/mcp-bash', shim);
  const broken = await doctor(t, []);
  t.equal(broken.report.shim.status, 'broken');
  t.ok(broken.report.findings.find((finding) => finding.id === 'shim.broken' && finding.fixable));
  await doctor(t, ['--fix']);
  t.equal(readlinkSync(shim), self, 'a broken link is replaced');
  rmSync(shim);
  writeFileSync(shim, '#!/bin/sh\necho old\n', { mode: 0o755 });
  const file = await doctor(t, ['--fix']);
  t.equal(file.report.shim.status, 'not_symlink');
  t.equal(readFileSync(shim, 'utf8'), '#!/bin/sh\necho old\n', 'a regular file is never replaced');
  rmSync(shim);
});

t.test(
  "doctor --json carries 1.x's sections: framework, runtime, install, shim, macOS, windows, project",
  async (t) => {
    const { report } = await doctor(t, [], tempDir(), { MSYSTEM: 'MINGW64' });
    const sections = report as unknown as Record<string, Record<string, unknown>>;
    t.match(sections.framework, { exists: true, pathConfigured: false, version: /^\d+\.\d+\.\d+/ });
    t.match(sections.install, {
      managedRoot: join(home, '.local', 'share', 'mcp-bash'),
      markerPresent: true,
      managed: true,
      reason: 'extracted by this binary',
    });
    t.match(sections.windows, { msysDetected: true, hint: /MSYS2_ARG_CONV_EXCL/ });
    t.match(sections.macOS, { applicable: process.platform === 'darwin' });
    t.ok(
      report.findings.find((finding) => finding.id === 'optional.shellcheck'),
      'optional tools are listed',
    );
  },
);

t.test('doctor still reports when the framework files cannot be extracted', async (t) => {
  // Neither the data dir nor the temp dir can be created (their parent is a file): the probe
  // says so instead of failing.
  const blocker = join(tempDir(), 'a-file');
  writeFileSync(blocker, '');
  const run = await cli(
    ['doctor', '--json'],
    { ...env, HOME: join(blocker, 'home'), XDG_DATA_HOME: join(blocker, 'data'), TMPDIR: join(blocker, 'tmp') },
    tempDir(),
  );
  t.equal(run.code, 1);
  const report = parseJson(t, run.stdout, 'doctor --json') as Record<string, unknown> & {
    findings: Array<{ id: string; severity: string }>;
  };
  matchesSchema(t, report, doctorReportSchema, 'doctor --json without framework files');
  t.ok(report.findings.find((finding) => finding.id === 'framework.unavailable' && finding.severity === 'error'));
  t.match(report.framework, { exists: false, path: null });
});

t.test('doctor finds damaged framework files and --fix extracts them again', async (t) => {
  const dataDir = join(home, '.local', 'share', 'mcp-bash');
  const extraction = join(
    dataDir,
    readdirSync(dataDir).find((name) => /^\d+\.\d+\.\d+-[0-9a-f]+$/.test(name)) as string,
  );
  appendFileSync(join(extraction, 'sdk', 'tool-sdk.sh'), '\n# tampered\n');
  rmSync(join(extraction, 'hooks', 'policy-check.sh'));
  const damaged = await doctor(t, []);
  t.equal(damaged.code, 1);
  t.same(damaged.report.assets.missing, ['hooks/policy-check.sh']);
  t.same(damaged.report.assets.modified, ['sdk/tool-sdk.sh']);
  t.ok(
    damaged.report.findings.find(
      (finding) => finding.id === 'framework.damaged' && finding.severity === 'error' && finding.fixable,
    ),
  );
  const repaired = await doctor(t, ['--fix']);
  t.equal(repaired.code, 0);
  t.ok(repaired.report.assets.intact);
  t.ok(existsSync(join(extraction, 'hooks', 'policy-check.sh')));
  if (existsSync(shim)) rmSync(shim);
});

t.test('doctor checks the project, requirements.json and --min-version', async (t) => {
  const root = await newProject(t, env, 'needs');
  writeFileSync(
    join(root, 'server.d/requirements.json'),
    JSON.stringify({
      framework: { minVersion: '99.1' },
      dependencies: [{ name: 'bash' }, { name: 'no-such-command-xyz' }, { or: ['nope-a', 'bash'] }],
    }),
  );
  const { code, report } = await doctor(t, [], root);
  t.equal(code, 1);
  t.match(report.project, { root, serverMetaValid: true, toolsCount: 1, registryExists: false });
  t.same(
    report.findings
      .filter((finding) => finding.severity === 'error')
      .map((finding) => finding.id)
      .sort(),
    ['deps.missing', 'framework.version_too_old'],
  );
  t.match(
    report.findings.find((finding) => finding.id === 'framework.version_too_old'),
    { suggestedCommand: 'mcp-bash doctor --fix --version 99.1.0' },
  );
  const old = await doctor(t, ['--min-version', '1.3.0']);
  t.equal(old.code, 0, 'a 1.x minimum is met');
  // semver precedence (the semver library): a prerelease is below its release; junk is no version.
  const errorIds = (run: Awaited<ReturnType<typeof doctor>>) =>
    run.report.findings.filter((finding) => finding.severity === 'error').map((finding) => finding.id);
  t.same(errorIds(await doctor(t, ['--min-version', `${version}-rc.1`])), [], 'a release meets its prerelease');
  const [major, minor, patch] = version.split('-')[0]?.split('.').map(Number) ?? [];
  const nextRc = `${major}.${minor}.${(patch ?? 0) + 1}-rc.1`;
  t.same(errorIds(await doctor(t, ['--min-version', nextRc])), ['framework.version_too_old'], nextRc);
  for (const junk of [`${version}.1`, `${version}garbage`])
    t.same(errorIds(await doctor(t, ['--min-version', junk])), ['framework.min_version_invalid'], junk);
  const human = await cli(['doctor', '--min-version', '99'], env, tempDir());
  t.equal(human.code, 1);
  t.match(
    human.stdout,
    /✗ mcp-bash \S+ is older than 99, required by --min-version\n\s+try: mcp-bash doctor --fix --version 99\.0\.0\n/,
    'the suggested command takes the version in full, as --version wants it',
  );
});

t.test('run by node from a bundle, doctor suggests rebuilding the bundle, not an upgrade it refuses', async (t) => {
  const run = spawnSync(
    process.execPath,
    [join(repoRoot, 'dist', 'mcp-bash.cjs'), 'doctor', '--json', '--min-version', '99'],
    {
      env,
      cwd: tempDir(),
      encoding: 'utf8',
    },
  );
  const report = parseJson(t, run.stdout, 'doctor --json');
  matchesSchema(t, report, doctorReportSchema, 'doctor --json under node');
  const tooOld = (report.findings as Array<{ id: string; message: string; suggestedCommand: string | null }>).find(
    (finding) => finding.id === 'framework.version_too_old',
  );
  t.match(tooOld?.message, /rebuild the bundle with mcp-bash 99\.0\.0 or newer/);
  t.equal(tooOld?.suggestedCommand, null, 'no doctor --fix command, which this runtime refuses (exit 3)');
});

t.test('doctor refuses --fix with --dry-run, and malformed upgrade flags (exit 2)', async (t) => {
  const both = await cli(['doctor', '--fix', '--dry-run'], env, tempDir());
  t.equal(both.code, 2);
  for (const args of [
    ['--archive', 'x.tgz', '--verify', 'abc'],
    ['--ref', 'v1'],
    ['--version', 'v2'],
    ['--archive', 'x.tgz'],
  ]) {
    const run = await cli(['doctor', ...args], env, tempDir());
    t.equal(run.code, 2, args.join(' '));
    t.match(run.stderr, /Usage: mcp-bash doctor/);
  }
  // test/integration/cli/doctor-upgrade.test.ts covers the upgrades themselves.
});

t.test('debug serves as usual and logs every message, redacted, to a kept state dir', async (t) => {
  const root = await newProject(t, env, 'dbg');
  const tmpRoot = tempDir();
  const server = new McpProcess({ projectRoot: root, env: { ...env, MCPBASH_TMP_ROOT: tmpRoot }, args: ['debug'] });
  await server.initialize('2025-06-18', {});
  const list = await server.request('tools/list', { _meta: { apiKey: 'sk-secret-value', progressToken: 'p1' } });
  t.match(list.result, { tools: [{ name: 'hello' }] });
  await server.close();
  const [dir] = readdirSync(tmpRoot).filter((name) => name.startsWith('mcpbash.debug.'));
  t.ok(dir, 'the state dir is kept');
  const stateDir = join(tmpRoot, dir as string);
  t.equal(statSync(stateDir).mode & 0o777, 0o700);
  t.match(server.stderr, new RegExp(`mcp-bash debug: logging to ${stateDir}/payload\\.debug\\.log`));
  const log = readFileSync(join(stateDir, 'payload.debug.log'), 'utf8');
  t.match(log, /^\d+\.\d{3}\|request\|1\|initialize\|\{"jsonrpc":"2\.0"/m);
  t.match(log, /\|notification-in\|-\|notifications\/initialized\|/);
  t.match(log, /\|response\|2\|ok\|\{.*"name":"hello"/);
  t.notMatch(log, /sk-secret-value/, 'secrets are redacted');
  t.match(log, /"apiKey":"\[REDACTED\]","progressToken":"p1"/);
});
