import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import t from 'tap';
import { fakeGetentScript } from '../helpers/https-fixture.js';
import { providersDir, type SdkSandbox, sandbox, sh } from '../helpers/sdk-harness.js';

const provider = join(providersDir, 'git.sh');

/**
 * A stand-in for git that logs its arguments and plays a remote repository holding
 * README.md, a symlink and a directory. FAKE_GIT_FETCH picks the fetch outcome.
 */
function fakeGit(box: SdkSandbox, log: string): void {
  box.fakeCommand(
    'git',
    `printf '%s\\n' "$*" >> ${sh(log)}
dir=""
while [ "$#" -gt 0 ]; do
  case "$1" in
  -c) shift 2 ;;
  -C) dir="$2"; shift 2 ;;
  *) break ;;
  esac
done
case "$1" in
--version) echo "git version \${FAKE_GIT_VERSION:-2.39.2}" ;;
init) mkdir -p "$4" ;;
fetch)
  case "\${FAKE_GIT_FETCH:-ok}" in
  fail) echo "fatal: repository not found" >&2; exit 128 ;;
  slow) sleep 20 ;;
  big) head -c 3000000 /dev/zero > "$dir/objects.pack"; sleep 2 ;;
  esac ;;
ls-tree)
  case "$4" in
  README.md) printf '100644 blob 1111111\\tREADME.md\\n' ;;
  docs/guide.md) printf '100644 blob 2222222\\tdocs/guide.md\\n' ;;
  link) printf '120000 blob 3333333\\tlink\\n' ;;
  docs) printf '040000 tree 4444444\\tdocs\\n' ;;
  esac ;;
cat-file) printf '# Readme\\nfrom %s\\n' "$3" ;;
esac`,
  );
}

function setup(t: Parameters<typeof sandbox>[0]) {
  const box = sandbox(t);
  const gitLog = join(box.dir, 'git.log');
  const getentLog = join(box.dir, 'getent.log');
  fakeGit(box, gitLog);
  box.fakeCommand('getent', fakeGetentScript(getentLog));
  const fetch = (uri: string, env: Record<string, string | undefined> = {}) =>
    box.runPlain(`bash ${sh(provider)} ${sh(uri)}`, {
      env: { MCPBASH_ENABLE_GIT_PROVIDER: 'true', MCPBASH_GIT_ALLOW_ALL: 'true', ...env },
      timeoutMs: 30_000,
    });
  const gitCalls = () => (existsSync(gitLog) ? readFileSync(gitLog, 'utf8').split('\n').filter(Boolean) : []);
  return { box, fetch, gitCalls, getentLog };
}

t.test('disabled unless MCPBASH_ENABLE_GIT_PROVIDER=true', async (t) => {
  const { fetch, gitCalls } = setup(t);
  for (const value of [undefined, '', 'false', '0', 'off', 'maybe']) {
    const run = await fetch('git+https://git.example.invalid/o/r#main:README.md', {
      MCPBASH_ENABLE_GIT_PROVIDER: value,
    });
    t.equal(run.code, 4, `MCPBASH_ENABLE_GIT_PROVIDER=${String(value)}`);
    t.match(run.stderr, /disabled/);
  }
  t.same(gitCalls(), [], 'git never ran');
  for (const value of ['1', 'yes', 'TRUE', ' On ']) {
    const run = await fetch('git+https://git.example.invalid/o/r#main:README.md', {
      MCPBASH_ENABLE_GIT_PROVIDER: value,
      MCPBASH_GIT_ALLOW_ALL: value,
    });
    t.equal(
      run.code,
      0,
      `MCPBASH_ENABLE_GIT_PROVIDER and MCPBASH_GIT_ALLOW_ALL=${JSON.stringify(value)}: ${run.stderr}`,
    );
  }
});

t.test(
  'enabled without MCPBASH_GIT_ALLOW_HOSTS or MCPBASH_GIT_ALLOW_ALL=true: exit 4 naming what to set',
  async (t) => {
    const { fetch, gitCalls, getentLog } = setup(t);
    for (const allowAll of [undefined, '', 'false', 'no', 'maybe']) {
      const run = await fetch('git+https://git.example.invalid/o/r#main:README.md', {
        MCPBASH_GIT_ALLOW_ALL: allowAll,
        MCPBASH_GIT_ALLOW_HOSTS: '',
      });
      t.equal(run.code, 4, `MCPBASH_GIT_ALLOW_ALL=${String(allowAll)}`);
      t.match(run.stderr, 'requires MCPBASH_GIT_ALLOW_HOSTS or MCPBASH_GIT_ALLOW_ALL=true when enabled');
    }
    t.same(gitCalls(), [], 'git never ran');
    t.notOk(existsSync(getentLog), 'no DNS lookup happened');
    const listed = await fetch('git+https://git.example.invalid/o/r#main:README.md', {
      MCPBASH_GIT_ALLOW_ALL: undefined,
      MCPBASH_GIT_ALLOW_HOSTS: 'git.example.invalid',
    });
    t.equal(listed.code, 0, `an exact allow-list entry is enough: ${listed.stderr}`);
    const denied = await fetch('git+https://git.example.invalid/o/r#main:README.md', {
      MCPBASH_GIT_ALLOW_ALL: undefined,
      MCPBASH_GIT_ALLOW_HOSTS: 'git.example.invalid',
      MCPBASH_GIT_DENY_HOSTS: 'git.example.invalid',
    });
    t.equal(denied.code, 4, 'the deny list wins over the allow list');
    t.match(denied.stderr, /deny list/);
  },
);

t.test('reads one file with a shallow, pinned, redirect-free fetch', async (t) => {
  const { fetch, gitCalls } = setup(t);
  const run = await fetch('git+https://git.example.invalid/owner/repo.git#v1.2:docs/guide.md', {
    MCPBASH_GIT_TIMEOUT: '5',
  });
  t.equal(run.code, 0, run.stderr);
  t.equal(run.stdout, '# Readme\nfrom FETCH_HEAD:docs/guide.md\n');
  const fetchCall = gitCalls().find((line) => / fetch /.test(line)) ?? '';
  for (const option of [
    'protocol.allow=never',
    'protocol.https.allow=always',
    'http.followRedirects=false',
    'credential.helper=',
    'core.hooksPath=/dev/null',
    'http.curloptResolve=git.example.invalid:443:93.184.216.34',
  ]) {
    t.ok(fetchCall.includes(`-c ${option}`), `fetch runs with ${option}`);
  }
  t.match(
    fetchCall,
    new RegExp(
      'fetch --quiet --depth 1 --no-tags --no-recurse-submodules -- ' +
        'https:\\/\\/git\\.example\\.invalid:443\\/owner\\/repo\\.git v1\\.2$',
    ),
  );
  const head = await fetch('git+https://git.example.invalid/o/r#README.md');
  t.equal(head.code, 0, 'a fragment without ":" is a path at HEAD');
  t.match(
    gitCalls()
      .filter((line) => / fetch /.test(line))
      .at(-1) ?? '',
    / HEAD$/,
  );
});

t.test('older git cannot pin DNS: warns and relies on the pre-check', async (t) => {
  const { fetch, gitCalls } = setup(t);
  const run = await fetch('git+https://git.example.invalid/o/r#main:README.md', { FAKE_GIT_VERSION: '2.30.1' });
  t.equal(run.code, 0);
  t.match(run.stderr, /cannot pin DNS answers/);
  t.notOk(gitCalls().some((line) => line.includes('curloptResolve')));
});

t.test('path problems are exit 3', async (t) => {
  const { fetch } = setup(t);
  const cases: Array<[string, RegExp]> = [
    ['git+https://git.example.invalid/o/r#main:../etc/passwd', /escapes the repository/],
    ['git+https://git.example.invalid/o/r#main:docs/../../x', /escapes the repository/],
    ['git+https://git.example.invalid/o/r#main:/etc/passwd', /escapes the repository/],
    ['git+https://git.example.invalid/o/r#main:missing.md', /not found at main/],
    ['git+https://git.example.invalid/o/r#main:link', /symbolic links are not served/],
    ['git+https://git.example.invalid/o/r#main:docs', /not a regular file/],
  ];
  for (const [uri, message] of cases) {
    const run = await fetch(uri);
    t.equal(run.code, 3, uri);
    t.match(run.stderr, message);
    t.equal(run.stdout, '');
  }
});

t.test('invalid URIs and blocked hosts are exit 4, before any git or DNS work', async (t) => {
  const { fetch, gitCalls, getentLog } = setup(t);
  const cases: Array<[string, Record<string, string>?]> = [
    ['https://git.example.invalid/o/r#main:README.md'],
    ['git+http://git.example.invalid/o/r#main:README.md'],
    ['git+https://git.example.invalid/o/r'],
    ['git+https://git.example.invalid/o/r#main:'],
    ['git+https://git.example.invalid/o/r#--upload-pack=evil:README.md'],
    ['git+https://git.example.invalid/o/r#a..b:README.md'],
    ['git+https://user:token@git.example.invalid/o/r#main:README.md'],
    ['git+https://localhost/o/r#main:README.md'],
    ['git+https://127.0.0.1/o/r#main:README.md'],
    ['git+https://[::1]/o/r#main:README.md'],
    ['git+https://169.254.169.254/o/r#main:README.md'],
    ['git+https://0x7f000001/o/r#main:README.md'],
    [
      'git+https://git.example.invalid/o/r#main:README.md',
      { MCPBASH_GIT_ALLOW_ALL: '', MCPBASH_GIT_ALLOW_HOSTS: 'github.com' },
    ],
    ['git+https://git.example.invalid/o/r#main:README.md', { MCPBASH_GIT_DENY_HOSTS: 'git.example.invalid' }],
    [
      'git+https://git.example.invalid/o/r#main:README.md',
      { MCPBASH_GIT_ALLOW_ALL: 'true', MCPBASH_GIT_DENY_HOSTS: 'git.example.invalid' },
    ],
  ];
  for (const [uri, env] of cases) {
    const run = await fetch(uri, env);
    t.equal(run.code, 4, `${uri} (${run.stderr.trim()})`);
  }
  t.same(gitCalls(), [], 'git never ran');
  t.notOk(existsSync(getentLog), 'no DNS lookup happened');
  const rebind = await fetch('git+https://rebind.invalid/o/r#main:README.md');
  t.equal(rebind.code, 4, 'a name with a private answer is refused');
  t.same(gitCalls(), [], 'still no git');
  const allowed = await fetch('git+https://git.example.invalid/o/r#main:README.md', {
    MCPBASH_GIT_ALLOW_ALL: '',
    MCPBASH_GIT_ALLOW_HOSTS: 'github.com, git.example.invalid',
  });
  t.equal(allowed.code, 0, 'an allow list entry lets the host through');
});

t.test('fetch failures, timeouts and the size cap', async (t) => {
  const { fetch } = setup(t);
  const failed = await fetch('git+https://git.example.invalid/o/r#main:README.md', { FAKE_GIT_FETCH: 'fail' });
  t.equal(failed.code, 5);
  t.match(failed.stderr, /fetch failed: fatal: repository not found/);
  const started = Date.now();
  const slow = await fetch('git+https://git.example.invalid/o/r#main:README.md', {
    FAKE_GIT_FETCH: 'slow',
    MCPBASH_GIT_TIMEOUT: '1',
  });
  t.equal(slow.code, 5);
  t.match(slow.stderr, /timed out after 1s/);
  t.ok(Date.now() - started < 10_000, 'the fetch was killed');
  const big = await fetch('git+https://git.example.invalid/o/r#main:README.md', {
    FAKE_GIT_FETCH: 'big',
    MCPBASH_GIT_MAX_KB: '1024',
  });
  t.equal(big.code, 6);
  t.match(big.stderr, /exceeds 1024 KB/);
});

t.test('without git: exit 4', async (t) => {
  const { box } = setup(t);
  const run = await box.runPlain(
    `PATH=/nonexistent; /bin/bash ${sh(provider)} 'git+https://8.8.8.8/o/r#main:README.md'`,
    {
      env: { MCPBASH_ENABLE_GIT_PROVIDER: 'true', MCPBASH_GIT_ALLOW_ALL: 'true' },
    },
  );
  t.equal(run.code, 4);
  t.match(run.stderr, /git is required/);
});

t.test('a real shallow fetch from a local smart-HTTP server, pinned to the vetted address', async (t) => {
  const { execFileSync } = await import('node:child_process');
  const { mkdirSync, writeFileSync, symlinkSync } = await import('node:fs');
  const { startGitHttpsFixture, TEST_HOST } = await import('../helpers/https-fixture.js');
  const box = sandbox(t);
  const root = join(box.dir, 'srv');
  const work = join(box.dir, 'work');
  mkdirSync(join(work, 'docs'), { recursive: true });
  writeFileSync(join(work, 'docs', 'guide.md'), 'Guide text\n\n');
  symlinkSync('/etc/passwd', join(work, 'escape'));
  const git = (args: string[], cwd = work) =>
    execFileSync('git', ['-c', 'user.name=t', '-c', 'user.email=t@example.invalid', ...args], { cwd, stdio: 'pipe' });
  git(['init', '-q', '-b', 'main']);
  git(['add', '.']);
  git(['commit', '-q', '-m', 'one']);
  git(['tag', 'v1']);
  writeFileSync(join(work, 'docs', 'guide.md'), 'Guide text, second version\n');
  git(['commit', '-q', '-am', 'two']);
  mkdirSync(root);
  git(['clone', '-q', '--bare', work, join(root, 'repo.git')], box.dir);
  const server = await startGitHttpsFixture(box.dir, root);
  t.teardown(() => server.close());
  box.fakeCommand('getent', fakeGetentScript(join(box.dir, 'getent.log')));
  const fetch = (fragment: string) =>
    box.runPlain(`bash ${sh(provider)} ${sh(`git+https://${TEST_HOST}:${server.port}/repo.git#${fragment}`)}`, {
      env: {
        MCPBASH_ENABLE_GIT_PROVIDER: 'true',
        MCPBASH_GIT_ALLOW_HOSTS: TEST_HOST,
        MCPBASH_TEST_ONLY_LOOPBACK_TARGETS: `${TEST_HOST}:${server.port}`,
        GIT_SSL_CAINFO: server.caFile,
        MCPBASH_GIT_TIMEOUT: '20',
      },
      timeoutMs: 40_000,
    });
  const latest = await fetch('main:docs/guide.md');
  t.equal(latest.code, 0, latest.stderr);
  t.equal(latest.stdout, 'Guide text, second version\n');
  const tagged = await fetch('v1:docs/guide.md');
  t.equal(tagged.code, 0, tagged.stderr);
  t.equal(tagged.stdout, 'Guide text\n\n', 'a tag, bytes exactly as committed');
  const link = await fetch('main:escape');
  t.equal(link.code, 3, 'a symlink in the repository is refused');
  const missing = await fetch('main:nope.md');
  t.equal(missing.code, 3);
  const badRef = await fetch('no-such-branch:docs/guide.md');
  t.equal(badRef.code, 5, 'an unknown ref is a fetch failure');
});
