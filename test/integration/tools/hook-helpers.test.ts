/**
 * Project hooks written for 1.x call the helpers 1.x sourced them with (original-behaviour
 * §3.1, §5.6, §1.9): mcp_json_extract_optional, mcp_logging_*, the _MCP_TOOLS_ERROR_*
 * variables... They work here too, and a hook that fails is logged with its status and stderr.
 */
import { chmodSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import t from 'tap';
import { cli, parseJson, sharedCliEnv } from '../../helpers/cli-projects.js';
import { fixtureProject } from '../../helpers/fixtures.js';
import { startInitialized } from '../../helpers/mcp-process.js';
import { isolatedEnv, toolEnv } from '../../helpers/run-binary.js';

function writeHook(project: string, name: string, lines: string[]): void {
  const path = join(project, 'server.d', name);
  writeFileSync(path, `${lines.join('\n')}\n`);
  chmodSync(path, 0o755);
}

const readOnlyPolicy = [
  '#!/usr/bin/env bash',
  'set -euo pipefail',
  'mcp_tools_policy_check() {',
  '  local name="$1" metadata="$2" read_only',
  '  read_only="$(mcp_json_extract_optional "${metadata}" -r \'.annotations.readOnlyHint // false\' false ' +
    'mcp.policy metadata)"',
  '  mcp_logging_info "policy.audit" "checked ${name}: readOnly=${read_only}"',
  '  if [ "${read_only}" != "true" ]; then',
  '    _MCP_TOOLS_ERROR_CODE=-32600',
  '    _MCP_TOOLS_ERROR_MESSAGE="Tool \'${name}\' is not read-only"',
  '    return 1',
  '  fi',
  '}',
];

t.test('a 1.x policy.sh: mcp_json_extract_optional, mcp_logging_*, _MCP_TOOLS_ERROR_* work', async (t) => {
  const project = fixtureProject('tools');
  writeHook(project, 'policy.sh', readOnlyPolicy);
  const server = await startInitialized({ projectRoot: project, env: isolatedEnv() });
  t.teardown(() => server.close());
  t.match(
    (await server.request('tools/call', { name: 'echo-text' })).result,
    { isError: false },
    'the read-only tool is allowed',
  );
  t.same((await server.request('tools/call', { name: 'echo-json', arguments: { text: 'x' } })).error, {
    code: -32600,
    message: "Tool 'echo-json' is not read-only",
  });
  await server.waitForStderr(/checked echo-json: readOnly=false/);
  t.match(server.stderr, /policy\.audit.*checked echo-text: readOnly=true/, "the hook's log reaches the server log");
  t.same(
    server
      .notifications('notifications/message')
      .filter((m) => (m.params as { logger?: string }).logger === 'policy.audit').length,
    2,
    'and the client, as notifications/message',
  );
});

t.test('a policy.sh that calls a helper nobody provides is logged with its status and stderr', async (t) => {
  const project = fixtureProject('tools');
  writeHook(project, 'policy.sh', [
    '#!/usr/bin/env bash',
    'mcp_tools_policy_check() {',
    '  mcp_no_such_helper "$1"',
    '}',
  ]);
  const server = await startInitialized({ projectRoot: project, env: toolEnv() });
  t.teardown(() => server.close());
  t.match((await server.request('tools/call', { name: 'echo-text' })).error, { code: -32602 });
  await server.waitForStderr(/returned 127/);
  t.match(
    server.stderr,
    new RegExp(
      "warning: mcp\\.tools\\.policy: server\\.d\\/policy\\.sh denied tool 'echo-text': " +
        'mcp_tools_policy_check returned 127 \\(stderr: .*mcp_no_such_helper: command not found\\)',
    ),
  );
});

t.test('register.sh has the helpers; a failing register.sh is logged with its stderr', async (t) => {
  const project = fixtureProject('tools');
  writeHook(project, 'register.sh', [
    '#!/usr/bin/env bash',
    'name="$(mcp_json_trim "  manual-echo  ")"',
    'mcp_logging_warning "register" "registering ${name}"',
    'mcp_register_tool "{\\"name\\":$(mcp_json_escape_string "${name}"),\\"path\\":\\"echo-text/tool.sh\\"}"',
  ]);
  const env = toolEnv({ MCPBASH_ALLOW_PROJECT_HOOKS: 'true' });
  const server = await startInitialized({ projectRoot: project, env });
  const listed = (await server.request('tools/list')).result as { tools: Array<{ name: string }> };
  t.same(
    listed.tools.map((tool) => tool.name),
    ['manual-echo'],
  );
  await server.close();
  t.match(server.stderr, /warning: register: registering manual-echo/);

  writeHook(project, 'register.sh', [
    '#!/usr/bin/env bash',
    'echo "first problem" >&2',
    'echo "second problem" >&2',
    'exit 3',
  ]);
  const failing = await startInitialized({ projectRoot: project, env });
  t.match((await failing.request('tools/list')).error, { code: -32603 });
  await failing.close();
  t.match(failing.stderr, /server\.d\/register\.sh exited with status 3 \(stderr: first problem\nsecond problem\)/);
});

t.test('health-checks.sh has the helpers; a script that fails says how it ended', async (t) => {
  const env = sharedCliEnv();
  const project = fixtureProject('tools');
  writeHook(project, 'health-checks.sh', [
    '#!/usr/bin/env bash',
    'mcp_health_check_command bash "Bash"',
    'if mcp_runtime_is_minimal_mode; then mcp_logging_error health "minimal"; fi',
    'mcp_logging_info health "$(mcp_json_extract_optional \'{"ok":true}\' -c .ok false)"',
  ]);
  const good = await cli(['health'], env, project);
  t.equal(good.code, 0, good.stderr);
  t.match(parseJson(t, good.stdout, 'health'), { status: 'ok', projectChecks: 'ok' });
  t.match(good.stderr, /mcp-bash: info: health: true/);
  writeHook(project, 'health-checks.sh', ['#!/usr/bin/env bash', 'mcp_no_such_check']);
  const broken = await cli(['health'], env, project);
  t.equal(broken.code, 1);
  t.match(broken.stderr, /mcp_no_such_check: command not found[\s\S]*health-checks\.sh exited with status 127/);
});
