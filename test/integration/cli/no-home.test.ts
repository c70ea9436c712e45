import { spawnSync } from 'node:child_process';
import { chmodSync, existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import t from 'tap';
import { cli, sharedCliEnv } from '../../helpers/cli-projects.js';
import { binaryCommand } from '../../helpers/paths.js';

// A uid with no passwd entry and no HOME: a container started with --user 12345. Only root
// can switch to one, with setpriv (util-linux).
const uid = 54_321;
const hasPasswdEntry = spawnSync('getent', ['passwd', String(uid)]).status === 0;
const canSwitch =
  process.getuid?.() === 0 && !hasPasswdEntry && spawnSync('setpriv', ['--version']).status === 0
    ? false
    : 'needs root, setpriv and a uid without a passwd entry';

/** Runs the binary as `uid` with nothing but PATH, TMPDIR and `extra` in its environment. */
function runAsStranger(args: string[], cwd: string, tmp: string, extra: string[] = []) {
  const { command, prefix } = binaryCommand();
  return spawnSync(
    'setpriv',
    [
      `--reuid=${uid}`,
      `--regid=${uid}`,
      '--clear-groups',
      'env',
      '-i',
      'PATH=/usr/bin:/bin',
      `TMPDIR=${tmp}`,
      ...extra,
      command,
      ...prefix,
      ...args,
    ],
    { cwd, encoding: 'utf8', timeout: 30_000 },
  );
}

t.test('no HOME and no passwd entry: the private temp dir is used', { skip: canSwitch }, async (t) => {
  // A shared dir the stranger can write, as /tmp is (the test's scratch dir is private).
  const tmp = mkdtempSync(join(tmpdir(), 'mcpbash-nohome-'));
  t.teardown(() => rmSync(tmp, { recursive: true, force: true }));
  chmodSync(tmp, 0o1777);
  t.equal((await cli(['new', 'demo'], sharedCliEnv(), tmp)).code, 0);
  const root = join(tmp, 'demo');
  spawnSync('chown', ['-R', `${uid}:${uid}`, root]);
  const run = runAsStranger(['run-tool', 'hello', '--allow-self'], root, tmp);
  t.equal(run.status, 0, run.stderr);
  t.match(run.stdout, /Hello/);
  t.equal(readdirSync(join(tmp, `mcp-bash-${uid}`)).length, 1, 'extracted under <tmp>/mcp-bash-<uid>');

  const doctor = runAsStranger(['doctor', '--json'], root, tmp);
  t.notMatch(doctor.stderr, /internal error/);
  const report = JSON.parse(doctor.stdout);
  t.equal(report.framework.origin, 'fallback');
  t.equal(report.install.managedRoot, null);
  t.equal(report.shim.path, null);
  const fallback = report.findings.find((finding: { id: string }) => finding.id === 'framework.fallback');
  t.match(fallback?.message, /no data dir/);

  // A relative HOME is no home either: nothing is written inside the cwd.
  const relative = runAsStranger(['run-tool', 'hello', '--allow-self'], root, tmp, ['HOME=relhome']);
  t.equal(relative.status, 0, relative.stderr);
  t.notOk(existsSync(join(root, 'relhome')), 'nothing written under the relative HOME');
});
