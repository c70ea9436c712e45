import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import t from 'tap';
import { cli, newProject, parseJson, sharedCliEnv, tempDir } from '../../helpers/cli-projects.js';

const env = sharedCliEnv();

function addTool(root: string, name: string, body: string, meta: Record<string, unknown> = {}): void {
  const dir = join(root, 'tools', name);
  mkdirSync(dir, { recursive: true });
  writeFileSync(
    join(dir, 'tool.sh'),
    `#!/usr/bin/env bash\nset -euo pipefail\n# shellcheck source=/dev/null\nsource ` +
      `"\${MCP_SDK}/tool-sdk.sh"\n${body}\n`,
    { mode: 0o755 },
  );
  writeFileSync(join(dir, 'tool.meta.json'), JSON.stringify({ name, description: `${name} tool`, ...meta }), {
    mode: 0o644,
  });
}

let root = '';
t.before(async () => {
  root = await newProject(t, env, 'rt');
  addTool(
    root,
    'probe',
    [
      'printf "probe-stderr-line\\n" >&2',
      'mcp_emit_json "$(mcp_json_obj myVar "${MY_VAR-unset}" custom "${MCPBASH_CUSTOM-unset}" roots ' +
        '"${MCP_ROOTS_COUNT}" mode "${MCPBASH_MODE}" elicit "${MCP_ELICIT_SUPPORTED}" count "$(mcp_args_get ' +
        '\'.count // 0\')")"',
    ].join('\n'),
    { inputSchema: { type: 'object', properties: { count: { type: 'integer' } } } },
  );
  addTool(root, 'fails', 'printf "disk on fire\\n" >&2\nexit 3');
  addTool(root, 'protocol-error', 'mcp_fail -32050 "custom failure" \'{"why":"test"}\'');
  addTool(root, 'slow', 'sleep 20');
  addTool(
    root,
    'asks-model',
    'if answer="$(mcp_sample "Say hi")"; then mcp_emit_text "model: ${answer}"; else mcp_emit_text "no model"; fi',
  );
  addTool(root, 'asks-whole', 'mcp_sample_messages \'[{"role":"user","content":{"type":"text","text":"x"}}]\' || true');
});

const run = (args: string[], extra: NodeJS.ProcessEnv = {}, cwd = root) =>
  cli(['run-tool', ...args], { ...env, ...extra }, cwd);

t.test('prints the CallToolResult as one JSON line; --args takes JSON or @file', async (t) => {
  const inline = await run(['probe', '--allow-self', '--args', '{"count":5}']);
  t.equal(inline.code, 0, inline.stderr);
  t.equal(inline.stdout.split('\n').length, 2, 'one line');
  const result = parseJson(t, inline.stdout, 'run-tool output');
  t.match(result, { isError: false, structuredContent: { count: '5', elicit: '0', mode: 'full', roots: '1' } });
  const argsFile = join(tempDir(), 'args.json');
  writeFileSync(argsFile, '{"count": 7}');
  const fromFile = await run(['probe', '--allow-self', '--args', `@${argsFile}`]);
  t.equal(fromFile.code, 0, fromFile.stderr);
  t.match(parseJson(t, fromFile.stdout, 'output'), { structuredContent: { count: '7' } });
  for (const [value, pattern] of [
    ['{nope', /not valid JSON/],
    ['[1]', /must be a JSON object/],
    ['@/no/such/file.json', /cannot read/],
  ] as const) {
    const bad = await run(['probe', '--allow-self', '--args', value]);
    t.equal(bad.code, 1, value);
    t.match(bad.stderr, pattern);
  }
});

t.test("--sample-response answers the tool's sampling requests: text or a CreateMessageResult", async (t) => {
  const textOf = (stdout: string) =>
    (parseJson(t, stdout, 'output') as { content: Array<{ text: string }> }).content[0]?.text;
  const none = await run(['asks-model', '--allow-self']);
  t.equal(textOf(none.stdout), 'no model', 'without it the tool cannot sample');
  const plain = await run(['asks-model', '--allow-self', '--sample-response', 'Hello there']);
  t.equal(plain.code, 0, plain.stderr);
  t.equal(textOf(plain.stdout), 'model: Hello there');
  const file = join(tempDir(), 'answer.json');
  const whole = {
    role: 'assistant',
    content: { type: 'text', text: 'from a file' },
    model: 'm',
    stopReason: 'endTurn',
  };
  writeFileSync(file, JSON.stringify(whole));
  const fromFile = await run(['asks-whole', '--allow-self', '--sample-response', `@${file}`]);
  t.same(JSON.parse(textOf(fromFile.stdout) as string), { action: 'accept', content: whole });
  const missing = await run(['asks-model', '--allow-self', '--sample-response', '@/no/such/answer.json']);
  t.equal(missing.code, 1);
  t.match(missing.stderr, /cannot read \/no\/such\/answer\.json/);
});

t.test('tools are denied by default; --allow-self, --allow and --allow-all open them for this run', async (t) => {
  const denied = await run(['probe']);
  t.equal(denied.code, 1);
  t.match(parseJson(t, denied.stdout, 'error'), { code: -32602, message: /blocked by policy/ });
  t.match(denied.stderr, /--allow-self/);
  t.equal((await run(['probe', '--allow', 'other', '--allow', 'probe'])).code, 0, '--allow is repeatable');
  t.equal((await run(['probe', '--allow-all'])).code, 0);
  t.equal(
    (await run(['probe'], { MCPBASH_TOOL_ALLOWLIST: 'probe' })).code,
    0,
    'the allowlist of the environment counts too',
  );
});

t.test('--dry-run prints the summary lines and checks the arguments against inputSchema', async (t) => {
  const dry = await run(['probe', '--allow-self', '--args', '{"count":42}', '--dry-run']);
  t.equal(dry.code, 0, dry.stderr);
  t.equal(
    dry.stdout,
    'Tool: probe\nArgs: 12 bytes\nRoots: 1\nTimeout: 30\nStatus: Ready to execute (re-run without --dry-run to run)\n',
  );
  const roots = `${root},${tempDir()}`;
  const custom = await run(['probe', '--allow-self', '--dry-run', '--timeout', '120', '--roots', roots]);
  t.match(custom.stdout, /Roots: 2\nTimeout: 120\n/);
  const invalid = await run(['probe', '--allow-self', '--dry-run', '--args', '{"count":"many"}']);
  t.equal(invalid.code, 1);
  t.match(parseJson(t, invalid.stdout, 'error'), { code: -32602, message: /argument 'count' must be integer/ });
});

t.test('--roots are the MCP roots the tool sees; each must exist', async (t) => {
  const two = await run(['probe', '--allow-self', '--roots', `${tempDir()},${tempDir()}`]);
  t.match(parseJson(t, two.stdout, 'output'), { structuredContent: { roots: '2' } });
  const missing = await run(['probe', '--allow-self', '--roots', '/no/such/root']);
  t.equal(missing.code, 1);
  t.match(missing.stderr, /--roots entry "\/no\/such\/root" does not exist/);
});

t.test('a failing tool exits 1 with its isError result; a protocol error prints the JSON-RPC error', async (t) => {
  const failed = await run(['fails', '--allow-self']);
  t.equal(failed.code, 1);
  t.match(parseJson(t, failed.stdout, 'result'), { isError: true, _meta: { exitCode: 3, stderr: /disk on fire/ } });
  const rpc = await run(['protocol-error', '--allow-self']);
  t.equal(rpc.code, 1);
  t.same(parseJson(t, rpc.stdout, 'error'), { code: -32050, message: 'custom failure', data: { why: 'test' } });
  const unknown = await run(['nope', '--allow-all']);
  t.equal(unknown.code, 1);
  t.match(parseJson(t, unknown.stdout, 'error'), { code: -32602, message: "Tool 'nope' not found" });
  t.match(
    unknown.stderr,
    /Tool 'nope' not found\ntools\/list shows the tools; 'mcp-bash validate' lists them/,
    'the error says what to do next',
  );
});

t.test('--timeout (fractions too, D224) stops the tool; the timeout result exits 0, as in 1.x', async (t) => {
  const started = Date.now();
  const slow = await run(['slow', '--allow-self', '--timeout', '0.5']);
  t.ok(Date.now() - started < 10_000, 'stopped early');
  t.equal(slow.code, 0, `1.x printed the isError JSON and exited 0: ${slow.stderr}`);
  t.match(parseJson(t, slow.stdout, 'result'), {
    isError: true,
    content: [{ text: 'Tool timed out after 0.5s' }],
    structuredContent: { error: { type: 'timeout', timeoutSecs: 0.5 } },
  });
  for (const value of ['soon', '0', '1e3']) {
    const bad = await run(['slow', '--timeout', value]);
    t.equal(bad.code, 2, `--timeout ${value}`);
    t.match(bad.stderr, /--timeout must be a positive number of seconds/);
  }
});

t.test('--verbose streams the tool stderr; --minimal runs it in minimal mode', async (t) => {
  const quiet = await run(['probe', '--allow-self']);
  t.notMatch(quiet.stderr, /probe-stderr-line/, 'without --verbose stderr is only in _meta.stderr');
  const verbose = await run(['probe', '--allow-self', '--verbose']);
  t.match(verbose.stderr, /probe-stderr-line/);
  const minimal = await run(['probe', '--allow-self', '--minimal']);
  t.equal(minimal.code, 0, minimal.stderr);
  t.match(parseJson(t, minimal.stdout, 'output'), { structuredContent: { mode: 'minimal' } });
});

t.test('--no-refresh uses .registry/tools.json as it is, and fails without one', async (t) => {
  const project = await newProject(t, env, 'cache');
  const before = await cli(['run-tool', 'hello', '--allow-self', '--no-refresh'], env, project);
  t.equal(before.code, 1);
  t.match(before.stderr, /tools\.json is missing or invalid[\s\S]*registry refresh/);
  t.equal((await cli(['registry', 'refresh', '--quiet'], env, project)).code, 0);
  addTool(project, 'later', 'echo later');
  t.equal((await cli(['run-tool', 'hello', '--allow-self', '--no-refresh'], env, project)).code, 0);
  const stale = await cli(['run-tool', 'later', '--allow-self', '--no-refresh'], env, project);
  t.match(parseJson(t, stale.stdout, 'error'), { message: "Tool 'later' not found" }, 'the cache is not refreshed');
});

t.test('--with-server-env and --source set the launch environment; --print-env shows the plan', async (t) => {
  writeFileSync(
    join(root, 'server.d/env.sh'),
    'echo "noise on stdout"\nexport MY_VAR=from-server-env\nMCPBASH_CUSTOM=plain-assignment\n',
  );
  writeFileSync(join(root, 'override.sh'), 'MY_VAR=from-source\n');
  const allow = { MCPBASH_TOOL_ENV_MODE: 'allowlist', MCPBASH_TOOL_ENV_ALLOWLIST: 'MY_VAR' };
  const plain = await run(['probe', '--allow-self'], allow);
  t.match(parseJson(t, plain.stdout, 'output'), { structuredContent: { myVar: 'unset', custom: 'unset' } });
  const sourced = await run(['probe', '--allow-self', '--with-server-env'], allow);
  t.equal(sourced.code, 0, sourced.stderr);
  t.equal(sourced.stdout.split('\n').length, 2, "the file's own output stays out of stdout");
  t.match(parseJson(t, sourced.stdout, 'output'), {
    structuredContent: { myVar: 'from-server-env', custom: 'plain-assignment' },
  });
  const minimalMode = await run(['probe', '--allow-self', '--with-server-env']);
  t.match(
    parseJson(t, minimalMode.stdout, 'output'),
    { structuredContent: { myVar: 'unset', custom: 'plain-assignment' } },
    'minimal env mode still filters what env files set',
  );
  const both = await run(['probe', '--allow-self', '--source', 'override.sh'], {
    ...allow,
    MCPBASH_RUN_TOOL_SOURCE_SERVER_ENV: '1',
  });
  t.match(
    parseJson(t, both.stdout, 'output'),
    { structuredContent: { myVar: 'from-source' } },
    '--source comes after server.d/env.sh',
  );
  const missing = await run(['probe', '--allow-self', '--source', 'nope.sh']);
  t.equal(missing.code, 1);
  t.match(missing.stderr, /env file not found: .*nope\.sh/);
  const printEnv = await run(['probe', '--print-env', '--with-server-env', '--source', 'override.sh']);
  t.equal(printEnv.code, 0);
  t.match(
    printEnv.stdout,
    new RegExp(
      `^MCPBASH_PROJECT_ROOT=${root}\\nMCPBASH_HOME=.+\\nMCP_SDK=.+/sdk\\nMCPBASH_MODE=full\\n` +
        `WILL_SOURCE_SERVER_ENV=${root}/server.d/env.sh\\nWILL_SOURCE\\[0\\]=${root}/override.sh\\n` +
        `ROOT\\[0\\]=${root}\\n$`,
    ),
  );
  const noJson = await run(['probe', '--print-env'], { MCPBASH_JSON_TOOL: 'none' });
  t.match(noJson.stdout, /^MCPBASH_MODE=minimal$/m, 'MCPBASH_JSON_TOOL=none is minimal mode');
});

t.test('usage errors exit 2 with the usage line', async (t) => {
  const noName = await run([]);
  t.equal(noName.code, 2);
  t.match(noName.stderr, /a tool name is required\nUsage: mcp-bash run-tool <name>/);
  const unknown = await run(['probe', '--frobnicate']);
  t.equal(unknown.code, 2);
  t.match(unknown.stderr, /unknown option --frobnicate/);
  const noValue = await run(['probe', '--args']);
  t.equal(noValue.code, 2);
  t.match(noValue.stderr, /option --args needs a value/);
});

t.test(
  'roots without --roots follow the fallbacks (MCPBASH_ROOTS, then the project root); -- ends the options',
  async (t) => {
    const [a, b] = [tempDir(), tempDir()];
    const fromEnv = await run(['probe', '--allow-self'], { MCPBASH_ROOTS: `${a}:${b}` });
    t.match(parseJson(t, fromEnv.stdout, 'output'), { structuredContent: { roots: '2' } }, 'MCPBASH_ROOTS');
    const printed = await run(['probe', '--print-env'], { MCPBASH_ROOTS: a });
    t.match(printed.stdout, new RegExp(`ROOT\\[0\\]=${a}\\n$`));
    const explicit = await run(['probe', '--allow-self', '--roots', a], { MCPBASH_ROOTS: `${a}:${b}` });
    t.match(
      parseJson(t, explicit.stdout, 'output'),
      { structuredContent: { roots: '1' } },
      '--roots wins over MCPBASH_ROOTS',
    );
    const separated = await run(['--allow-self', '--', 'probe']);
    t.equal(separated.code, 0, separated.stderr);
    t.match(
      parseJson(t, separated.stdout, 'output'),
      { structuredContent: { mode: 'full' } },
      'the name after -- is the tool',
    );
  },
);

t.test('--project-root runs a tool of another project from anywhere', async (t) => {
  const elsewhere = tempDir();
  const remote = await cli(['run-tool', 'probe', '--allow-self', '--project-root', root], env, elsewhere);
  t.equal(remote.code, 0, remote.stderr);
  t.match(parseJson(t, remote.stdout, 'output'), { isError: false });
  const none = await cli(['run-tool', 'probe', '--allow-self'], env, elsewhere);
  t.equal(none.code, 1);
  t.match(none.stderr, /no mcp-bash project found[\s\S]*--project-root/);
});
