import { existsSync, mkdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import t from 'tap';
import { fakeGetentScript, type HttpsFixture, startHttpsFixture, TEST_HOST } from '../helpers/https-fixture.js';
import { providersDir, type SdkSandbox, sandbox, sh, type TapLike } from '../helpers/sdk-harness.js';

const provider = join(providersDir, 'https.sh');

interface Setup {
  box: SdkSandbox;
  server: HttpsFixture;
  getentLog: string;
  curlMarker: string;
  env: Record<string, string>;
}

async function setup(t: TapLike): Promise<Setup> {
  const box = sandbox(t);
  const server = await startHttpsFixture(box.dir);
  t.teardown(() => server.close());
  const getentLog = join(box.dir, 'getent.log');
  box.fakeCommand('getent', fakeGetentScript(getentLog));
  const env = {
    CURL_CA_BUNDLE: server.caFile,
    MCPBASH_TEST_ONLY_LOOPBACK_TARGETS: `127.0.0.1:${server.port},${TEST_HOST}:${server.port}`,
    MCPBASH_HTTPS_ALLOW_HOSTS: `127.0.0.1,${TEST_HOST}`,
  };
  return { box, server, getentLog, curlMarker: join(box.dir, 'curl-was-run'), env };
}

const fetch = (s: Setup, uri: string, env: Record<string, string | undefined> = {}, pathPrefix: string[] = []) =>
  s.box.runPlain(`bash ${sh(provider)} ${sh(uri)}`, { env: { ...s.env, ...env }, pathPrefix });

t.test('fetches allowlisted https URLs with the body byte for byte', async (t) => {
  const s = await setup(t);
  const byIp = await fetch(s, `https://127.0.0.1:${s.server.port}/ok`);
  t.equal(byIp.code, 0, byIp.stderr);
  t.equal(byIp.stdout, 'hello over https\n');
  t.match(byIp.stderr, /TEST-ONLY loopback override/, 'the test-only hatch announces itself');
  // .invalid never resolves for real: success proves curl used the vetted, pinned address.
  const byName = await fetch(s, `https://${TEST_HOST}:${s.server.port}/ok?x=1#frag`);
  t.equal(byName.code, 0, byName.stderr);
  t.equal(byName.stdout, 'hello over https\n');
  t.match(readFileSync(s.getentLog, 'utf8'), new RegExp(`ahosts ${TEST_HOST}`));
  t.equal(s.server.requests.at(-1), '/ok?x=1', 'the fragment is not sent');
  const exact = await fetch(s, `https://${TEST_HOST}:${s.server.port}/bytes/1000`, { MCPBASH_HTTPS_MAX_BYTES: '1000' });
  t.equal(exact.code, 0);
  t.equal(exact.stdout.length, 1000, 'exactly the cap is allowed');
});

t.test('MCPBASH_HTTPS_ALLOW_ALL takes the boolean words of every setting (true/1/yes/on, any case)', async (t) => {
  const s = await setup(t);
  const uri = `https://${TEST_HOST}:${s.server.port}/ok`;
  for (const value of ['true', '1', 'yes', 'TRUE', ' On ']) {
    const run = await fetch(s, uri, { MCPBASH_HTTPS_ALLOW_HOSTS: '', MCPBASH_HTTPS_ALLOW_ALL: value });
    t.equal(run.code, 0, `MCPBASH_HTTPS_ALLOW_ALL=${JSON.stringify(value)}: ${run.stderr}`);
  }
  for (const value of ['false', '0', 'no', 'maybe']) {
    const run = await fetch(s, uri, { MCPBASH_HTTPS_ALLOW_HOSTS: '', MCPBASH_HTTPS_ALLOW_ALL: value });
    t.equal(run.code, 4, `MCPBASH_HTTPS_ALLOW_ALL=${value} allows nothing`);
  }
});

t.test('user agent: MCPBASH_HTTPS_USER_AGENT or an mcpbash default', async (t) => {
  const s = await setup(t);
  const custom = await fetch(s, `https://${TEST_HOST}:${s.server.port}/ua`, {
    MCPBASH_HTTPS_USER_AGENT: 'my-tool/1.0',
  });
  t.equal(custom.stdout, 'my-tool/1.0');
  const fallback = await fetch(s, `https://${TEST_HOST}:${s.server.port}/ua`, { MCPBASH_FRAMEWORK_VERSION: '9.9.9' });
  t.equal(fallback.stdout, 'mcpbash/9.9.9 (https-provider)');
});

t.test('redirects are not followed: exit 7 with the absolute location', async (t) => {
  const s = await setup(t);
  const relative = await fetch(s, `https://${TEST_HOST}:${s.server.port}/redirect`);
  t.equal(relative.code, 7);
  t.equal(
    relative.stderr.split('\n').find((line) => line.startsWith('redirect:')),
    `redirect:https://${TEST_HOST}:${s.server.port}/ok`,
  );
  const absolute = await fetch(s, `https://${TEST_HOST}:${s.server.port}/redirect-abs`);
  t.equal(absolute.code, 7);
  t.match(absolute.stderr, /^redirect:https:\/\/elsewhere\.example\/target$/m);
  t.equal(s.server.requests.filter((path) => path === '/ok').length, 0, 'the target was never requested');
});

t.test('HTTP errors, timeouts and size caps', async (t) => {
  const s = await setup(t);
  const status = await fetch(s, `https://${TEST_HOST}:${s.server.port}/status/500`);
  t.equal(status.code, 5);
  t.match(status.stderr, /HTTP status 500/);
  t.equal(status.stdout, '', 'no error body on stdout');
  const sized = await fetch(s, `https://${TEST_HOST}:${s.server.port}/bytes/2000`, { MCPBASH_HTTPS_MAX_BYTES: '1000' });
  t.equal(sized.code, 6, 'Content-Length over the cap');
  t.equal(sized.stdout, '');
  const streamed = await fetch(s, `https://${TEST_HOST}:${s.server.port}/stream/300000`, {
    MCPBASH_HTTPS_MAX_BYTES: '1000',
  });
  t.equal(streamed.code, 6, 'a chunked body over the cap');
  t.equal(streamed.stdout, '');
  const started = Date.now();
  const slow = await fetch(s, `https://${TEST_HOST}:${s.server.port}/slow`, { MCPBASH_HTTPS_TIMEOUT: '1' });
  t.equal(slow.code, 5);
  t.ok(Date.now() - started < 4500, 'MCPBASH_HTTPS_TIMEOUT bounds the request');
  const refused = await fetch(s, `https://${TEST_HOST}:1/ok`, { MCPBASH_TEST_ONLY_LOOPBACK_TARGETS: `${TEST_HOST}:1` });
  t.equal(refused.code, 5, 'connection refused');
});

t.test('blocked before any lookup or connection', async (t) => {
  const s = await setup(t);
  s.box.fakeCommand('curl', `touch ${sh(s.curlMarker)}; exit 99`);
  const allowAll = { MCPBASH_HTTPS_ALLOW_ALL: 'true', MCPBASH_TEST_ONLY_LOOPBACK_TARGETS: '' };
  const blocked: Array<[string, Record<string, string>]> = [
    ['http://example.com/', allowAll],
    ['https://localhost/', allowAll],
    ['https://LOCALHOST:8443/', allowAll],
    ['https://app.localhost/', allowAll],
    ['https://127.0.0.1/', allowAll],
    ['https://127.8.9.10/', allowAll],
    ['https://10.1.2.3/', allowAll],
    ['https://172.16.0.1/', allowAll],
    ['https://192.168.1.1/', allowAll],
    ['https://169.254.169.254/latest/meta-data', allowAll],
    ['https://100.64.0.1/', allowAll],
    ['https://198.18.0.1/', allowAll],
    ['https://0.0.0.0/', allowAll],
    ['https://224.0.0.1/', allowAll],
    ['https://[::1]/', allowAll],
    ['https://[::]/', allowAll],
    ['https://[fd00::1]/', allowAll],
    ['https://[fe80::1]/', allowAll],
    ['https://[::ffff:127.0.0.1]/', allowAll],
    ['https://[::ffff:7f00:1]/', allowAll],
    ['https://[::ffff:0:10.0.0.1]/', allowAll],
    ['https://[64:ff9b::a9fe:a9fe]/', allowAll],
    ['https://2130706433/', allowAll],
    ['https://0x7f000001/', allowAll],
    ['https://0177.0.0.1/', allowAll],
    ['https://127.1/', allowAll],
    ['https://%31%32%37.0.0.1/', allowAll],
    ['https://allowed.example@127.0.0.1/', allowAll],
    ['https://127.0.0.1\\@allowed.example/', allowAll],
    ['https://exa mple.com/', allowAll],
    ['https://public.invalid/', { MCPBASH_HTTPS_ALLOW_HOSTS: '', MCPBASH_HTTPS_ALLOW_ALL: '' }],
    ['https://public.invalid/', { MCPBASH_HTTPS_ALLOW_HOSTS: 'other.example' }],
    [
      'https://public.invalid/',
      { MCPBASH_HTTPS_ALLOW_HOSTS: 'public.invalid', MCPBASH_HTTPS_DENY_HOSTS: 'PUBLIC.invalid' },
    ],
    ['https://public.invalid/', { MCPBASH_HTTPS_ALLOW_ALL: 'true', MCPBASH_HTTPS_DENY_HOSTS: 'x, public.invalid' }],
  ];
  for (const [uri, env] of blocked) {
    const run = await fetch(s, uri, env);
    t.equal(run.code, 4, `${uri} is refused (${run.stderr.trim()})`);
    t.equal(run.stdout, '');
  }
  t.notOk(existsSync(s.curlMarker), 'curl never ran');
  t.notOk(existsSync(s.getentLog), 'no name was even looked up');
});

t.test('every DNS answer is vetted; the test hatch opens loopback only', async (t) => {
  const s = await setup(t);
  s.box.fakeCommand('curl', `touch ${sh(s.curlMarker)}; exit 99`);
  const rebind = await fetch(s, 'https://rebind.invalid/', { MCPBASH_HTTPS_ALLOW_HOSTS: 'rebind.invalid' });
  t.equal(rebind.code, 4, 'one private answer among public ones blocks the host');
  t.match(rebind.stderr, /resolves to a private or reserved address \(10\.0\.0\.5\)/);
  const hatch = await fetch(s, 'https://rebind.invalid:443/', {
    MCPBASH_HTTPS_ALLOW_HOSTS: 'rebind.invalid',
    MCPBASH_TEST_ONLY_LOOPBACK_TARGETS: 'rebind.invalid:443',
  });
  t.equal(hatch.code, 4, 'the test hatch never opens non-loopback private addresses');
  const wrongPort = await fetch(s, `https://127.0.0.1:${s.server.port + 1}/ok`);
  t.equal(wrongPort.code, 4, 'the hatch is for exact host:port pairs');
  const unknown = await fetch(s, 'https://nowhere.invalid/', { MCPBASH_HTTPS_ALLOW_HOSTS: 'nowhere.invalid' });
  t.equal(unknown.code, 5, 'a name that does not resolve is a fetch failure');
  t.notOk(existsSync(s.curlMarker), 'curl never ran');
});

t.test('without curl the provider refuses (no weaker fallback)', async (t) => {
  const s = await setup(t);
  const tools = join(s.box.dir, 'only-tools');
  mkdirSync(tools);
  for (const name of ['bash', 'mktemp', 'rm', 'head', 'wc', 'tr', 'awk', 'cat']) {
    const found = ['/usr/bin', '/bin'].map((dir) => join(dir, name)).find((path) => existsSync(path));
    if (found) symlinkSync(found, join(tools, name));
  }
  const run = await s.box.runPlain(`${join(tools, 'bash')} ${sh(provider)} https://127.0.0.1:${s.server.port}/ok`, {
    env: { ...s.env, PATH: tools },
  });
  t.equal(run.code, 4);
  t.match(run.stderr, /curl is required/);
});

t.test('a project provider can delegate with exec', async (t) => {
  const s = await setup(t);
  const project = join(s.box.dir, 'providers');
  mkdirSync(project);
  const wrapper = join(project, 'myapi.sh');
  writeFileSync(wrapper, `#!/usr/bin/env bash\nexec "\${MCPBASH_HOME}/providers/https.sh" "$@"\n`, { mode: 0o755 });
  const home = join(s.box.dir, 'home');
  mkdirSync(home);
  symlinkSync(providersDir, join(home, 'providers'));
  const run = await s.box.runPlain(`bash ${sh(wrapper)} https://127.0.0.1:${s.server.port}/ok`, {
    env: { ...s.env, MCPBASH_HOME: home, MCP_SDK: undefined },
  });
  t.equal(run.code, 0, run.stderr);
  t.equal(run.stdout, 'hello over https\n');
});
