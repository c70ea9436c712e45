import { chmodSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import t from 'tap';
import { fixtureProject } from '../../helpers/fixtures.js';
import { InProcessServer, startInProcess } from '../../helpers/in-process-server.js';
import { isolatedEnv, toolEnv } from '../../helpers/run-binary.js';
import { scratchDir } from '../../helpers/scratch.js';

t.test('tools are denied by default, with a message that says exactly what to set', async (t) => {
  const server = await startInProcess({ projectRoot: fixtureProject('tools'), env: isolatedEnv() });
  const denied = await server.request('tools/call', { name: 'echo-text' });
  t.equal(denied.error?.code, -32602);
  t.match(
    denied.error?.message,
    /^Tool 'echo-text' blocked by policy: MCPBASH_TOOL_ALLOWLIST is empty.*Set MCPBASH_TOOL_ALLOWLIST="echo-text"/,
  );
  await server.close();
});

t.test('MCPBASH_TOOL_ALLOWLIST names tools (comma or space separated); others stay denied', async (t) => {
  const server = await startInProcess({
    projectRoot: fixtureProject('tools'),
    env: isolatedEnv({ MCPBASH_TOOL_ALLOWLIST: 'echo-json, echo-text' }),
  });
  t.match((await server.request('tools/call', { name: 'echo-text' })).result, { isError: false });
  t.match((await server.request('tools/call', { name: 'passthrough' })).error, {
    code: -32602,
    message: /not in MCPBASH_TOOL_ALLOWLIST \(echo-json,echo-text\)/,
  });
  await server.close();
});

t.test('MCPBASH_TOOL_ALLOW_DEFAULT=allow opens an empty allowlist', async (t) => {
  const server = await startInProcess({
    projectRoot: fixtureProject('tools'),
    env: isolatedEnv({ MCPBASH_TOOL_ALLOW_DEFAULT: 'allow' }),
  });
  t.match((await server.request('tools/call', { name: 'echo-text' })).result, { isError: false });
  await server.close();
});

t.test('server.d/policy.sh replaces the default check and chooses its error', async (t) => {
  const project = fixtureProject('tools');
  const policy = join(project, 'server.d', 'policy.sh');
  writeFileSync(
    policy,
    [
      '#!/usr/bin/env bash',
      'mcp_tools_policy_check() {',
      '  case "$1" in',
      '  echo-text) return 0 ;;',
      '  passthrough) mcp_tools_error -32042 "read-only mode: $1 is disabled" \'{"mode":"ro"}\'; return 1 ;;',
      '  *) return 1 ;;',
      '  esac',
      '}',
      '',
    ].join('\n'),
  );
  chmodSync(policy, 0o644);
  const server = await startInProcess({ projectRoot: project, env: isolatedEnv() });
  t.match(
    (await server.request('tools/call', { name: 'echo-text' })).result,
    { isError: false },
    'allowed without any allowlist',
  );
  t.same((await server.request('tools/call', { name: 'passthrough' })).error, {
    code: -32042,
    message: 'read-only mode: passthrough is disabled',
    data: { mode: 'ro' },
  });
  t.same((await server.request('tools/call', { name: 'echo-json', arguments: { text: 'x' } })).error, {
    code: -32602,
    message: "Tool 'echo-json' blocked by policy",
  });
  chmodSync(policy, 0o666);
  t.match(
    (await server.request('tools/call', { name: 'echo-text' })).error,
    { code: -32602, message: /policy\.sh is not trusted .*writable by group or others/ },
    'a tamperable policy denies everything',
  );
  await server.close();
});

t.test('policy.sh in a project root writable by others is not trusted: every call is denied (D43)', async (t) => {
  const project = fixtureProject('tools');
  const policy = join(project, 'server.d', 'policy.sh');
  writeFileSync(policy, '#!/usr/bin/env bash\nmcp_tools_policy_check() { return 0; }\n');
  chmodSync(policy, 0o644);
  chmodSync(project, 0o777);
  const server = await startInProcess({ projectRoot: project, env: isolatedEnv() });
  const denied = await server.request('tools/call', { name: 'echo-text' });
  t.match(denied.error, { code: -32602, message: /policy\.sh is not trusted .*writable by group or others/ });
  t.ok(denied.error?.message.includes(`${project} is writable`), `the project root is named: ${denied.error?.message}`);
  await server.close();
  chmodSync(project, 0o755);
});

t.test('policy.sh gets the tool metadata without E2BIG, even for a ~200 KB inputSchema', async (t) => {
  const project = fixtureProject('tools');
  mkdirSync(join(project, 'tools', 'big-schema'));
  const properties = Object.fromEntries(
    Array.from({ length: 2000 }, (_, i) => [
      `field_${i}`,
      { type: 'string', description: `field number ${i} ${'x'.repeat(60)}` },
    ]),
  );
  writeFileSync(
    join(project, 'tools', 'big-schema', 'tool.meta.json'),
    JSON.stringify({ name: 'big-schema', inputSchema: { type: 'object', properties } }),
  );
  writeFileSync(join(project, 'tools', 'big-schema', 'tool.sh'), '#!/usr/bin/env bash\nprintf big\n');
  chmodSync(join(project, 'tools', 'big-schema', 'tool.sh'), 0o755);
  const policy = join(project, 'server.d', 'policy.sh');
  writeFileSync(
    policy,
    [
      '#!/usr/bin/env bash',
      'mcp_tools_policy_check() {',
      '  case "$2" in',
      '  *\'"name":"big-schema"\'*\'"field_1999"\'*) return 0 ;;',
      '  esac',
      '  mcp_tools_error -32042 "metadata of $1 not seen (${#2} bytes)"',
      '  return 1',
      '}',
      '',
    ].join('\n'),
  );
  chmodSync(policy, 0o644);
  const server = await startInProcess({ projectRoot: project, env: isolatedEnv() });
  t.match((await server.request('tools/call', { name: 'big-schema' })).result, {
    content: [{ text: 'big' }],
    isError: false,
  });
  await server.close();
});

t.test('a tool script writable by others is refused', async (t) => {
  const project = fixtureProject('tools');
  chmodSync(join(project, 'tools', 'echo-text', 'tool.sh'), 0o777);
  const server = await startInProcess({ projectRoot: project, env: toolEnv() });
  t.match((await server.request('tools/call', { name: 'echo-text' })).error, {
    code: -32602,
    message: /^Tool 'echo-text' path rejected by policy: .*writable by group or others/,
  });
  await server.close();
});

t.test('env modes: allowlist adds named variables; inherit needs an explicit opt-in', async (t) => {
  const env = toolEnv({
    MCPBASH_TOOL_ENV_MODE: 'allowlist',
    MCPBASH_TOOL_ENV_ALLOWLIST: 'MY_SECRET_TOKEN',
    MY_SECRET_TOKEN: 'x',
    OTHER_VAR: 'y',
  });
  const server = await startInProcess({ projectRoot: fixtureProject('tools'), env });
  const names =
    (
      (await server.request('tools/call', { name: 'env-dump' })).result as { content: Array<{ text: string }> }
    ).content[0]?.text.split('\n') ?? [];
  t.ok(names.includes('MY_SECRET_TOKEN'));
  t.notOk(names.includes('OTHER_VAR'));
  await server.close();

  const refusing = await startInProcess({
    projectRoot: fixtureProject('tools'),
    env: toolEnv({ MCPBASH_TOOL_ENV_MODE: 'inherit', OTHER_VAR: 'y' }),
  });
  t.match((await refusing.request('tools/call', { name: 'env-dump' })).error, {
    code: -32602,
    message: /MCPBASH_TOOL_ENV_INHERIT_ALLOW=true/,
  });
  await refusing.close();

  const inheriting = await startInProcess({
    projectRoot: fixtureProject('tools'),
    env: toolEnv({ MCPBASH_TOOL_ENV_MODE: 'inherit', MCPBASH_TOOL_ENV_INHERIT_ALLOW: 'true', OTHER_VAR: 'y' }),
  });
  const all =
    (
      (await inheriting.request('tools/call', { name: 'env-dump' })).result as { content: Array<{ text: string }> }
    ).content[0]?.text.split('\n') ?? [];
  t.ok(all.includes('OTHER_VAR'));
  await inheriting.request('tools/call', { name: 'env-dump' });
  const warnings = inheriting.stderr
    .split('\n')
    .filter((line) => /warning: .*MCPBASH_TOOL_ENV_MODE=inherit/.test(line));
  t.equal(warnings.length, 1, `inherit mode is warned about once, not per call:\n${inheriting.stderr}`);
  t.match(warnings[0], /full (server|host) environment/);
  await inheriting.close();
});

t.test('getting-started mode: its one tool runs without an allowlist', async (t) => {
  const server = new InProcessServer({ cwd: scratchDir('mcpbash-gs-'), env: isolatedEnv() });
  await server.initialize();
  const { tools } = (await server.request('tools/list')).result as { tools: Array<{ name: string }> };
  t.same(
    tools.map((tool) => tool.name),
    ['getting_started'],
  );
  const result = (await server.request('tools/call', { name: 'getting_started' })).result as {
    content: Array<{ text: string }>;
  };
  t.match(result.content[0]?.text, /MCPBASH_PROJECT_ROOT/);
  await server.close();
});
