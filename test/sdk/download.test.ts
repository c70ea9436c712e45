import { cpSync, existsSync, mkdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { type AddressInfo, createServer } from 'node:net';
import { join } from 'node:path';
import t from 'tap';
import { fakeGetentScript, startHttpsFixture, TEST_HOST } from '../helpers/https-fixture.js';
import { jsonTools, type SdkSandbox, sandbox, sdkDir, sh } from '../helpers/sdk-harness.js';

interface DownloadResult {
  success: boolean;
  bytes?: number;
  path?: string;
  error?: { type: string; message: string; location?: string };
}

const download = async (
  box: SdkSandbox,
  args: string,
  env: Record<string, string | undefined> = {},
  tool = jsonTools()[3],
) => {
  const run = await box.run(`mcp_download_safe ${args}; echo " rc=$?"`, { env, tool });
  const match = /^(.*) rc=(\d+)\n$/s.exec(run.stdout);
  return { json: JSON.parse(match?.[1] ?? 'null') as DownloadResult, rc: Number(match?.[2]), stderr: run.stderr };
};

t.test('downloads through the https provider against a local HTTPS server', async (t) => {
  const box = sandbox(t);
  const server = await startHttpsFixture(box.dir);
  t.teardown(() => server.close());
  box.fakeCommand('getent', fakeGetentScript(join(box.dir, 'getent.log')));
  const env = { CURL_CA_BUNDLE: server.caFile, MCPBASH_TEST_ONLY_LOOPBACK_TARGETS: `${TEST_HOST}:${server.port}` };
  const base = `https://${TEST_HOST}:${server.port}`;
  const out = join(box.dir, 'out', 'file.txt');
  mkdirSync(join(box.dir, 'out'));

  const ok = await download(box, `--url ${base}/ok --out ${sh(out)} --allow ${TEST_HOST}`, env);
  t.equal(ok.rc, 0);
  t.same(ok.json, { success: true, bytes: 17, path: out });
  t.equal(readFileSync(out, 'utf8'), 'hello over https\n');
  t.equal(server.lastUserAgent, 'mcpbash/2.0.0-test (tool-sdk)', 'default User-Agent');

  const fromEnv = await download(box, `--url ${base}/ua --out ${sh(out)} --user-agent agent/1`, {
    ...env,
    MCPBASH_HTTPS_ALLOW_HOSTS: TEST_HOST,
  });
  t.equal(fromEnv.json.success, true, 'MCPBASH_HTTPS_ALLOW_HOSTS is the default allow list');
  t.equal(readFileSync(out, 'utf8'), 'agent/1');

  const envDeny = await download(box, `--url ${base}/ok --out ${sh(out)} --allow ${TEST_HOST}`, {
    ...env,
    MCPBASH_HTTPS_DENY_HOSTS: TEST_HOST,
  });
  t.equal(envDeny.json.error?.type, 'host_blocked', 'the environment deny list still applies with --allow');
  const flagDeny = await download(
    box,
    `--url ${base}/ok --out ${sh(out)} --allow ${TEST_HOST} --deny ${TEST_HOST}`,
    env,
  );
  t.equal(flagDeny.json.error?.type, 'host_blocked', '--deny wins over --allow');

  const redirect = await download(box, `--url ${base}/redirect --out ${sh(out)} --allow ${TEST_HOST}`, env);
  t.same(redirect.json, {
    success: false,
    error: {
      type: 'redirect',
      message: 'URL redirects - use canonical URL or add target to allowlist',
      location: `${base}/ok`,
    },
  });

  const big = await download(
    box,
    `--url ${base}/bytes/5000 --out ${sh(out)} --allow ${TEST_HOST} --max-bytes 100`,
    env,
  );
  t.same(big.json, { success: false, error: { type: 'size_exceeded', message: 'Response exceeds max-bytes limit' } });

  const status = await download(
    box,
    `--url ${base}/status/503 --out ${sh(out)} --allow ${TEST_HOST} --retry 2 --retry-delay 0.01`,
    env,
  );
  t.equal(status.json.error?.type, 'network_error');
  t.match(status.json.error?.message, /HTTP status 503/);
  t.equal(server.requests.filter((path) => path === '/status/503').length, 2, 'network errors are retried');

  const unwritable = await download(
    box,
    `--url ${base}/ok --out ${sh(join(box.dir, 'no-such-dir', 'x'))} --allow ${TEST_HOST}`,
    env,
  );
  t.equal(unwritable.json.error?.type, 'write_error');

  const orFail = await box.run(
    `p="$(mcp_download_safe_or_fail --url ${base}/ok --out ${sh(out)} --allow ${TEST_HOST})"; printf '%s' "$p"`,
    { env },
  );
  t.equal(orFail.stdout, out);
});

t.test('timeouts, automatic retries and the allow-all switch against the local HTTPS server', async (t) => {
  const box = sandbox(t);
  const server = await startHttpsFixture(box.dir);
  t.teardown(() => server.close());
  box.fakeCommand('getent', fakeGetentScript(join(box.dir, 'getent.log')));
  // A port nothing listens on: connections are refused at once.
  const closedPort = await new Promise<number>((resolve) => {
    const probe = createServer();
    probe.listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as AddressInfo;
      probe.close(() => resolve(port));
    });
  });
  const env = {
    CURL_CA_BUNDLE: server.caFile,
    MCPBASH_TEST_ONLY_LOOPBACK_TARGETS: `${TEST_HOST}:${server.port},${TEST_HOST}:${closedPort}`,
  };
  const base = `https://${TEST_HOST}:${server.port}`;
  const out = join(box.dir, 'file.txt');

  t.test('--timeout ends a request the server never answers', async (t) => {
    const started = Date.now();
    const hang = await download(
      box,
      `--url ${base}/hang --out ${sh(out)} --allow ${TEST_HOST} --timeout 1 --retry 1`,
      env,
    );
    const elapsed = Date.now() - started;
    t.equal(hang.json.error?.type, 'network_error');
    t.match(hang.json.error?.message, /curl exit 28/, 'curl timed out');
    t.ok(elapsed >= 900 && elapsed < 8000, `gave up after ${elapsed} ms`);
    t.notOk(existsSync(out), 'nothing was written');
  });

  t.test('network errors are retried 3 times in all by default, with doubling delays', async (t) => {
    writeFileSync(box.files.debug, '');
    const before = server.connections;
    const failing = await download(
      box,
      `--url ${base}/status/500 --out ${sh(out)} --allow ${TEST_HOST} --retry-delay 0.05`,
      env,
    );
    t.equal(failing.json.error?.type, 'network_error');
    t.equal(server.connections - before, 3, 'three connections');
    const delays = [
      ...box.read('debug').matchAll(/attempt (\d)\/3 failed \(network error\), retrying in ([\d.]+)s/g),
    ].map((m) => [Number(m[1]), Number(m[2])]);
    t.equal(delays.length, 2, 'two retries logged');
    t.ok(
      delays[0] && delays[0][1] >= 0.05 && delays[0][1] <= 0.076,
      `first wait ${delays[0]?.[1]} s: the delay plus up to 50%`,
    );
    t.ok(delays[1] && delays[1][1] >= 0.1 && delays[1][1] <= 0.151, `second wait ${delays[1]?.[1]} s: doubled`);

    writeFileSync(box.files.debug, '');
    const refused = await download(
      box,
      `--url https://${TEST_HOST}:${closedPort}/x --out ${sh(out)} --allow ${TEST_HOST} --retry-delay 0.01`,
      env,
    );
    t.equal(refused.json.error?.type, 'network_error', 'connection refused');
    t.equal(box.read('debug').match(/attempt \d\/3 failed/g)?.length, 2, 'a refused connection is retried too');
  });

  t.test('--retries is --retry', async (t) => {
    const before = server.requests.length;
    const four = await download(
      box,
      `--url ${base}/status/503 --out ${sh(out)} --allow ${TEST_HOST} --retries 4 --retry-delay 0.01`,
      env,
    );
    t.equal(four.json.error?.type, 'network_error');
    t.equal(server.requests.length - before, 4, '--retries 4: four attempts');
    const once = await download(box, `--url ${base}/status/503 --out ${sh(out)} --allow ${TEST_HOST} --retries 1`, env);
    t.equal(once.json.error?.type, 'network_error');
    t.equal(server.requests.length - before, 5, '--retries 1: no retry');
    const ok = await download(box, `--url ${base}/ok --out ${sh(out)} --allow ${TEST_HOST} --retries 2`, env);
    t.equal(ok.json.success, true);
  });

  t.test('an HTTP client error is final; 408, 429 and 5xx are retried', async (t) => {
    for (const [status, attempts] of [
      [404, 1],
      [403, 1],
      [408, 3],
      [429, 3],
      [502, 3],
    ] as const) {
      const before = server.requests.length;
      const result = await download(
        box,
        `--url ${base}/status/${status} --out ${sh(out)} --allow ${TEST_HOST} --retry-delay 0.01`,
        env,
      );
      t.equal(result.json.error?.type, 'network_error', `HTTP ${status}`);
      t.match(result.json.error?.message, new RegExp(`HTTP status ${status}`));
      t.equal(server.requests.length - before, attempts, `HTTP ${status}: ${attempts} attempt(s)`);
    }
  });

  t.test('an explicit --allow list is not widened by MCPBASH_HTTPS_ALLOW_ALL', async (t) => {
    const allowAll = { ...env, MCPBASH_HTTPS_ALLOW_ALL: 'true' };
    const narrow = await download(box, `--url ${base}/ok --out ${sh(out)} --allow api.example.com`, allowAll);
    t.equal(narrow.json.error?.type, 'host_blocked');
    t.match(narrow.json.error?.message, /not in allow list/);
    const envDecides = await download(box, `--url ${base}/ok --out ${sh(out)}`, allowAll);
    t.equal(envDecides.json.success, true, 'without --allow, allow-all from the environment applies');
    const denied = await download(box, `--url ${base}/ok --out ${sh(out)} --deny ${TEST_HOST}`, allowAll);
    t.equal(denied.json.error?.type, 'host_blocked', 'deny lists still win over allow-all');
  });
});

t.test('blocked downloads never start curl', async (t) => {
  const box = sandbox(t);
  const marker = join(box.dir, 'curl-ran');
  box.fakeCommand('curl', `touch ${sh(marker)}; exit 99`);
  const out = join(box.dir, 'x');
  const cases: Array<[string, string]> = [
    ['--url https://localhost/file --allow localhost', 'host_blocked'],
    ['--url https://127.0.0.1/file --allow 127.0.0.1', 'host_blocked'],
    ['--url https://[::1]/x --allow ::1', 'host_blocked'],
    ['--url https://2130706433/x --allow 2130706433', 'host_blocked'],
    ['--url https://example.com/file', 'host_blocked'],
    ['--url https://example.com/file --allow other.com', 'host_blocked'],
    ['--url https://example.com/file --allow example.com --deny example.com', 'host_blocked'],
  ];
  for (const [args, type] of cases) {
    const result = await download(box, `${args} --out ${sh(out)}`);
    t.equal(result.rc, 0);
    t.equal(result.json.success, false);
    t.equal(result.json.error?.type, type, args);
  }
  t.notOk(existsSync(marker), 'curl was never invoked');
  t.notOk(existsSync(out), 'nothing was written');
});

t.test('argument validation', async (t) => {
  const box = sandbox(t);
  const cases: Array<[string, string, RegExp]> = [
    ['--out /tmp/x', 'invalid_url', /--url is required/],
    ['--url https://example.com/f', 'invalid_params', /--out is required/],
    ['--url http://example.com/f --out /tmp/x', 'invalid_url', /URL must use https:\/\//],
    ['--url "" --out /tmp/x', 'invalid_url', /--url is required/],
    ['--url https://x.com --out /tmp/x --alow x.com', 'invalid_params', /Unknown option: --alow/],
    ['--url https://x.com --out /tmp/x extra', 'invalid_params', /Unexpected argument: extra/],
    [`--url https://x.com --out /tmp/x 'arg"with"quotes'`, 'invalid_params', /Unexpected argument: arg"with"quotes/],
    ['--url https://x.com --out /tmp/x --max-bytes abc', 'invalid_params', /--max-bytes must be a positive integer/],
    ['--url https://x.com --out /tmp/x --timeout slow', 'invalid_params', /--timeout must be a positive integer/],
    ['--url https://x.com --out /tmp/x --timeout 120', 'invalid_params', /--timeout cannot exceed 60 seconds/],
    ['--url https://x.com --out /tmp/x --timeout 61', 'invalid_params', /--timeout cannot exceed 60 seconds/],
    ['--url https://x.com --out /tmp/x --timeout 0', 'invalid_params', /--timeout must be a positive integer/],
    ['--url https://x.com --out /tmp/x --timeout 000', 'invalid_params', /--timeout must be a positive integer/],
    ['--url https://x.com --out /tmp/x --timeout ""', 'invalid_params', /--timeout must be a positive integer/],
    ['--url https://x.com --out /tmp/x --max-bytes 0', 'invalid_params', /--max-bytes must be a positive integer/],
    ['--url https://x.com --out /tmp/x --max-bytes -5', 'invalid_params', /--max-bytes must be a positive integer/],
    ['--url https://x.com --out /tmp/x --max-bytes ""', 'invalid_params', /--max-bytes must be a positive integer/],
    ['--url https://x.com --out /tmp/x --retries 0', 'invalid_params', /--retries must be a positive integer/],
    ['--url https://x.com --out /tmp/x --retries two', 'invalid_params', /--retries must be a positive integer/],
    ['--url https://x.com --out /tmp/x --retry three', 'invalid_params', /--retry must be a positive integer/],
    ['--url https://x.com --out /tmp/x --retry 0', 'invalid_params', /--retry must be a positive integer/],
    ['--url https://x.com --out /tmp/x --retry-delay slow', 'invalid_params', /--retry-delay must be a number/],
  ];
  for (const [args, type, message] of cases) {
    const result = await download(box, args);
    t.equal(result.rc, 0, 'status 0 under set -e');
    t.equal(result.json.error?.type, type, args);
    t.match(result.json.error?.message, message, args);
  }
  const boundary = await download(box, '--url https://x.com/f --out /tmp/x --timeout 60 --retry-delay .5');
  t.equal(boundary.json.error?.type, 'host_blocked', '60 s and .5 pass validation');
  const padded = await download(box, '--url https://x.com/f --out /tmp/x --timeout 0060 --max-bytes 01 --retries 05');
  t.equal(padded.json.error?.type, 'host_blocked', 'leading zeros are fine');
});

t.test('retries only network errors (mock providers)', async (t) => {
  const box = sandbox(t);
  const home = join(box.dir, 'home');
  mkdirSync(join(home, 'providers'), { recursive: true });
  const count = join(box.dir, 'calls');
  const mock = (status: number, stderr = '') =>
    writeFileSync(
      join(home, 'providers', 'https.sh'),
      `echo 1 >> ${sh(count)}\n${stderr ? `printf '%s\\n' ${sh(stderr)} >&2\n` : ''}echo partial\nexit ${status}\n`,
    );
  const run = async (status: number, stderr = '') => {
    mock(status, stderr);
    writeFileSync(count, '');
    const result = await download(
      box,
      `--url https://example.com/f --out ${sh(join(box.dir, 'o'))} --allow example.com --retry 3 --retry-delay 0.01`,
      {
        MCPBASH_HOME: home,
      },
    );
    return { ...result, calls: readFileSync(count, 'utf8').split('\n').filter(Boolean).length };
  };
  const network = await run(5, 'connection refused');
  t.equal(network.calls, 3);
  mock(5, 'connection refused');
  writeFileSync(count, '');
  const byDefault = await download(
    box,
    `--url https://example.com/f --out ${sh(join(box.dir, 'o'))} --allow example.com --retry-delay 0.01`,
    {
      MCPBASH_HOME: home,
    },
  );
  t.equal(byDefault.json.error?.type, 'network_error');
  t.equal(readFileSync(count, 'utf8').split('\n').filter(Boolean).length, 3, 'three attempts without --retry');
  t.same(network.json.error, { type: 'network_error', message: 'Network request failed: connection refused' });
  for (const [status, type] of [
    [4, 'host_blocked'],
    [6, 'size_exceeded'],
    [7, 'redirect'],
    [1, 'provider_error'],
    [127, 'provider_error'],
  ] as const) {
    const result = await run(status, status === 7 ? 'redirect:https://example.com/new' : 'boom');
    t.equal(result.calls, 1, `exit ${status} is not retried`);
    t.equal(result.json.error?.type, type);
    if (status === 7) t.equal(result.json.error?.location, 'https://example.com/new');
  }
  t.notOk(existsSync(join(box.dir, 'o')), 'failed downloads leave no output file');
  const success = await run(0);
  t.same(success.json, { success: true, bytes: 8, path: join(box.dir, 'o') });
});

t.test('provider_unavailable without the provider or without curl', async (t) => {
  const box = sandbox(t);
  const lonely = join(box.dir, 'lonely-sdk');
  cpSync(sdkDir, lonely, { recursive: true });
  const noProvider = await box.run('mcp_download_safe --url https://example.com/f --out /tmp/x --allow example.com', {
    env: { MCP_SDK: lonely, MCPBASH_HOME: join(box.dir, 'empty') },
  });
  t.same(JSON.parse(noProvider.stdout), {
    success: false,
    error: { type: 'provider_unavailable', message: 'HTTPS provider not found' },
  });

  const tools = join(box.dir, 'tools');
  mkdirSync(tools);
  for (const name of ['bash', 'cat', 'mktemp', 'rm', 'awk', 'head', 'tr', 'wc']) {
    const found = ['/usr/bin', '/bin'].map((dir) => join(dir, name)).find((path) => existsSync(path));
    if (found) symlinkSync(found, join(tools, name));
  }
  const noCurl = await box.run(
    `PATH=${sh(tools)}; mcp_download_safe --url https://example.com/f --out /tmp/x --allow example.com`,
  );
  t.same(JSON.parse(noCurl.stdout), {
    success: false,
    error: { type: 'provider_unavailable', message: 'curl is required for HTTPS downloads' },
  });
});

for (const tool of jsonTools().filter((candidate) => candidate.name === 'jq' || candidate.name === 'minimal')) {
  t.test(`mcp_download_safe_or_fail failure with ${tool.name}`, { skip: tool.skip ?? false }, async (t) => {
    const box = sandbox(t);
    const run = await box.run(
      'p="$(mcp_download_safe_or_fail --url https://example.com/f --out /tmp/x)"; echo unreachable',
      { tool },
    );
    t.equal(run.code, 1);
    const error = JSON.parse(readFileSync(box.files.error, 'utf8')) as { code: number; message: string };
    t.equal(error.code, -32602);
    t.match(error.message, /^Download failed \(host_blocked\): Host blocked by policy/);
  });
}
