import { chmodSync, existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import t from 'tap';
import { healthReportSchema, registryRefreshSchema, registryStatusSchema } from '../../helpers/cli-output-schemas.js';
import { cli, matchesSchema, newProject, parseJson, sharedCliEnv, tempDir } from '../../helpers/cli-projects.js';
import { startInProcess } from '../../helpers/in-process-server.js';
import { toolEnv } from '../../helpers/run-binary.js';

const env = sharedCliEnv();

t.test('registry refresh writes .registry/ and prints one JSON line per the schema', async (t) => {
  const root = await newProject(t, env);
  t.equal((await cli(['scaffold', 'tool', 'second'], env, root)).code, 0);
  const run = await cli(['registry', 'refresh'], env, root);
  t.equal(run.code, 0, run.stderr);
  const report = parseJson(t, run.stdout, 'registry refresh');
  matchesSchema(t, report, registryRefreshSchema, 'registry refresh');
  t.match(report, {
    tools: { status: 'ok', count: 2 },
    prompts: { status: 'ok', count: 0 },
    ui: { status: 'ok', count: 0 },
    notificationsSent: false,
    mode: 'full',
  });
  t.ok(existsSync(join(root, '.registry/tools.json')));
  const filtered = await cli(['registry', 'refresh', '--filter', 'tools/second', '--quiet', '--no-notify'], env, root);
  t.match(parseJson(t, filtered.stdout, 'filtered'), { tools: { count: 2, filter: 'second', matched: 1 } });
  const outside = await cli(['registry', 'refresh', '--filter', '../elsewhere'], env, root);
  t.equal(outside.code, 2);
  t.match(outside.stderr, /not inside the tools directory/);
});

t.test('registry refresh --filter scans only that subtree and keeps the rest of the previous registry', async (t) => {
  const root = await newProject(t, env);
  t.equal((await cli(['scaffold', 'tool', 'second'], env, root)).code, 0);
  const tools = () =>
    (
      JSON.parse(readFileSync(join(root, '.registry/tools.json'), 'utf8')) as {
        items: Array<{ name: string; description: string }>;
      }
    ).items;
  const first = await cli(['registry', 'refresh', '--filter', 'tools/second', '--quiet'], env, root);
  t.match(
    parseJson(t, first.stdout, 'first'),
    { tools: { status: 'ok', count: 1, filter: 'second', matched: 1 } },
    'no previous registry: only the subtree',
  );
  t.same(
    tools().map((tool) => tool.name),
    ['second'],
  );
  t.equal((await cli(['registry', 'refresh', '--quiet'], env, root)).code, 0);
  t.equal(tools().length, 2);
  t.equal((await cli(['scaffold', 'tool', 'third'], env, root)).code, 0);
  writeFileSync(
    join(root, 'tools/second/tool.meta.json'),
    JSON.stringify({ name: 'second', description: 'rescanned' }),
  );
  const limited = await cli(['registry', 'refresh', '--filter', 'tools/second', '--quiet'], env, root);
  t.match(parseJson(t, limited.stdout, 'limited'), { tools: { count: 2, matched: 1 } });
  t.same(
    tools()
      .map((tool) => tool.name)
      .sort(),
    ['hello', 'second'],
    'third (outside the filter) is not scanned; hello is kept',
  );
  t.equal(tools().find((tool) => tool.name === 'second')?.description, 'rescanned');
  const globbed = await cli(['registry', 'refresh', '--filter', 'tools/*', '--quiet'], env, root);
  t.match(
    parseJson(t, globbed.stdout, 'globbed'),
    { tools: { count: 2, matched: 0 } },
    '"*" is literal: nothing is under tools/*',
  );
  t.same(
    tools()
      .map((tool) => tool.name)
      .sort(),
    ['hello', 'second'],
  );
});

t.test('registry refresh reports a failing kind with exit 1', async (t) => {
  const root = await newProject(t, env);
  writeFileSync(join(root, 'server.d/register.json'), '{"version": 1, "bogus": []}');
  const run = await cli(['registry', 'refresh', '--quiet'], env, root);
  t.equal(run.code, 1);
  const report = parseJson(t, run.stdout, 'registry refresh');
  matchesSchema(t, report, registryRefreshSchema, 'registry refresh');
  t.match(report, { tools: { status: 'failed', error: /register\.json/ } });
});

t.test('registry status shows each cache file; no project is exit 2; subcommands are required', async (t) => {
  const root = await newProject(t, env);
  const missing = parseJson(t, (await cli(['registry', 'status'], env, root)).stdout, 'status');
  matchesSchema(t, missing, registryStatusSchema, 'registry status');
  t.match(missing, { projectRoot: root, tools: { status: 'missing' } });
  await cli(['registry', 'refresh', '--quiet'], env, root);
  const present = parseJson(t, (await cli(['registry', 'status'], env, root)).stdout, 'status');
  matchesSchema(t, present, registryStatusSchema, 'registry status');
  t.match(present, {
    tools: { status: 'present', count: 1, hash: /^[0-9a-f]{64}$/, mtime: /^\d{4}-/ },
    ui: { status: 'present', count: 0 },
  });
  writeFileSync(join(root, '.registry/tools.json'), 'garbage');
  writeFileSync(join(root, '.registry/prompts.json'), '{"version":1,"items":{}}');
  const invalid = parseJson(t, (await cli(['registry', 'status'], env, root)).stdout, 'status');
  matchesSchema(t, invalid, registryStatusSchema, 'registry status');
  t.match(invalid, {
    tools: { status: 'invalid', reason: /^not valid JSON \(/ },
    prompts: { status: 'invalid', reason: 'not a registry: "items" is not an array' },
  });
  t.equal((await cli(['registry', 'status'], env, tempDir())).code, 2);
  const none = await cli(['registry'], env, root);
  t.equal(none.code, 1, 'usage errors of registry exit 1, as in 1.x');
  t.match(none.stderr, /a subcommand is required \(refresh, status\)/);
  t.equal((await cli(['registry', 'rebuild'], env, root)).code, 1);
});

t.test('health: 0 with one JSON line, 1 when health-checks.sh fails, 2 without a project', async (t) => {
  const root = await newProject(t, env);
  const ok = await cli(['health'], env, root);
  t.equal(ok.code, 0, ok.stderr);
  const report = parseJson(t, ok.stdout, 'health');
  matchesSchema(t, report, healthReportSchema, 'health');
  t.match(report, { status: 'ok', tools: 1, ui: 0, projectChecks: 'none' });
  t.notOk(existsSync(join(root, '.registry')), 'a probe writes no cache');
  const checks = join(root, 'server.d/health-checks.sh');
  writeFileSync(checks, 'mcp_health_check_command bash "Bash"\nmcp_health_check_env HEALTH_TEST_VAR "the API key"\n', {
    mode: 0o644,
  });
  const failing = await cli(['--ready'], env, root);
  t.equal(failing.code, 1);
  t.match(parseJson(t, failing.stdout, 'ready'), { status: 'unhealthy', projectChecks: 'failed' });
  t.match(failing.stderr, /✓ Bash \(bash found\)\n✗ the API key \(HEALTH_TEST_VAR is not set\)/);
  // A failed check counts wherever it is in the script, not only on its last line.
  writeFileSync(
    checks,
    'mcp_health_check_command no-such-command-here "Missing CLI"\nmcp_health_check_env HEALTH_TEST_VAR "the API key"\n',
  );
  const earlyFailure = await cli(['health'], { ...env, HEALTH_TEST_VAR: 'x' }, root);
  t.equal(earlyFailure.code, 1, 'a failed check before the last line still fails the probe');
  t.match(parseJson(t, earlyFailure.stdout, 'health'), { status: 'unhealthy', projectChecks: 'failed' });
  t.match(
    earlyFailure.stderr,
    /✗ Missing CLI \(no-such-command-here not found on PATH\)\n✓ the API key/,
    'every check still runs',
  );
  writeFileSync(checks, 'mcp_health_check_command bash "Bash"\nmcp_health_check_env HEALTH_TEST_VAR "the API key"\n');
  const passing = await cli(['ready', '--project-root', root], { ...env, HEALTH_TEST_VAR: 'x' }, tempDir());
  t.equal(passing.code, 0, passing.stderr);
  t.match(parseJson(t, passing.stdout, 'ready'), { status: 'ok', projectChecks: 'ok' });
  chmodSync(checks, 0o666);
  const untrusted = await cli(['--health'], { ...env, HEALTH_TEST_VAR: 'x' }, root);
  t.equal(untrusted.code, 1);
  t.match(parseJson(t, untrusted.stdout, 'health'), { projectChecks: 'untrusted' });
  t.match(untrusted.stderr, /not running server\.d\/health-checks\.sh: .*writable by group or others/);
  const noProject = await cli(['health'], env, tempDir());
  t.equal(noProject.code, 2);
  const misconfigured = parseJson(t, noProject.stdout, 'health');
  matchesSchema(t, misconfigured, healthReportSchema, 'health (no project)');
  t.match(misconfigured, { status: 'error', reason: 'misconfigured' });
});

t.test('health times out (exit 1), reports a failing registry, and refuses forced minimal mode (exit 2)', async (t) => {
  const root = await newProject(t, env);
  writeFileSync(join(root, 'server.d/health-checks.sh'), 'sleep 20\n', { mode: 0o644 });
  const slow = await cli(['health', '--timeout', '1'], env, root);
  t.equal(slow.code, 1);
  const timeout = parseJson(t, slow.stdout, 'health');
  matchesSchema(t, timeout, healthReportSchema, 'health (timeout)');
  t.same(timeout, { schemaVersion: 1, status: 'unhealthy', reason: 'timeout', timeoutSecs: 1 });
  const fromEnv = await cli(['health'], { ...env, MCPBASH_HEALTH_TIMEOUT_SECS: '1' }, root);
  t.same(
    parseJson(t, fromEnv.stdout, 'health'),
    { schemaVersion: 1, status: 'unhealthy', reason: 'timeout', timeoutSecs: 1 },
    'MCPBASH_HEALTH_TIMEOUT_SECS',
  );
  for (const bad of ['abc', '0.5', '0']) {
    const option = await cli(['health', '--timeout', bad], env, root);
    t.equal(option.code, 2, `--timeout ${bad} is a usage error`);
    t.match(option.stderr, /--timeout must be a whole number of seconds above 0/);
    t.equal(option.stdout, '');
  }
  writeFileSync(join(root, 'server.d/health-checks.sh'), 'true\n');
  const bogus = await cli(['health'], { ...env, MCPBASH_HEALTH_TIMEOUT_SECS: 'bogus' }, root);
  t.equal(bogus.code, 0, 'a bad MCPBASH_HEALTH_TIMEOUT_SECS means the default');
  t.match(bogus.stderr, /warning: MCPBASH_HEALTH_TIMEOUT_SECS="bogus" is not a whole number; using 5/);
  // A slow register.sh: the probe answers at the timeout and the process ends right after.
  writeFileSync(join(root, 'server.d/health-checks.sh'), 'true\n');
  writeFileSync(join(root, 'server.d/register.sh'), 'sleep 20\n', { mode: 0o700 });
  const started = Date.now();
  const hung = await cli(['health', '--timeout', '1'], { ...env, MCPBASH_ALLOW_PROJECT_HOOKS: 'true' }, root);
  t.equal(hung.code, 1);
  t.same(parseJson(t, hung.stdout, 'health'), {
    schemaVersion: 1,
    status: 'unhealthy',
    reason: 'timeout',
    timeoutSecs: 1,
  });
  t.ok(Date.now() - started < 6000, `the probe exits soon after its timeout (took ${Date.now() - started} ms)`);
  rmSync(join(root, 'server.d/register.sh'));
  writeFileSync(join(root, 'server.d/health-checks.sh'), 'true\n');
  mkdirSync(join(root, 'server.d'), { recursive: true });
  writeFileSync(join(root, 'server.d/register.json'), 'not json');
  const broken = await cli(['health'], env, root);
  t.equal(broken.code, 1);
  t.match(parseJson(t, broken.stdout, 'health'), {
    status: 'unhealthy',
    tools: null,
    errors: { tools: /register\.json/ },
  });
  const minimal = await cli(['health'], { ...env, MCPBASH_FORCE_MINIMAL: 'true' }, root);
  t.equal(minimal.code, 2);
  t.match(parseJson(t, minimal.stdout, 'health'), { status: 'error', reason: 'json_tool_missing' });
  const none = await cli(['health'], { ...env, MCPBASH_JSON_TOOL: 'none' }, root);
  t.equal(none.code, 2, 'MCPBASH_JSON_TOOL=none is minimal mode as well');
  t.match(parseJson(t, none.stdout, 'health'), {
    status: 'error',
    reason: 'json_tool_missing',
    message: /MCPBASH_JSON_TOOL is none/,
  });
});

t.test("an older build's cache survives neither a partial refresh nor a restart (D284)", async (t) => {
  const root = await newProject(t, env);
  t.equal((await cli(['scaffold', 'tool', 'second'], env, root)).code, 0);
  // A header beside a meta.json that names the tool: read by builds before D282, not now.
  const script = join(root, 'tools/hello/tool.sh');
  writeFileSync(script, readFileSync(script, 'utf8').replace('\n', '\n# mcp: {"description":"STALE header"}\n'));
  t.equal((await cli(['registry', 'refresh', '--quiet'], env, root)).code, 0);
  const file = join(root, '.registry/tools.json');
  const items = () => (JSON.parse(readFileSync(file, 'utf8')) as { items: Array<{ name: string }> }).items;
  // What a build before D284 left: its own items (the header's description merged) and no rules.
  const older = JSON.parse(readFileSync(file, 'utf8')) as { items: Array<Record<string, unknown>>; rules?: string };
  t.match(older.rules, /^\S+ discovery \d+$/, 'the cache names the rules that wrote it');
  older.items = older.items.map((item) => (item.name === 'hello' ? { ...item, description: 'STALE header' } : item));
  delete older.rules;
  writeFileSync(file, JSON.stringify(older));
  t.equal((await cli(['registry', 'refresh', '--filter', 'tools/second', '--quiet'], env, root)).code, 0);
  t.same(
    items().map((item) => item.name),
    ['second'],
    "a partial refresh does not merge an older build's items: without a usable registry, only the subtree (1.x)",
  );
  // A full server does not take the partial registry for a full scan of the same files.
  const server = await startInProcess({ projectRoot: root, env: toolEnv() });
  t.teardown(() => server.close());
  const { tools } = (await server.request('tools/list', { limit: 200 })).result as {
    tools: Array<{ name: string; description: string }>;
  };
  t.same(tools.map((tool) => [tool.name, tool.description === 'STALE header']).sort(), [
    ['hello', false],
    ['second', false],
  ]);
});
