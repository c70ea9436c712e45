import { PassThrough } from 'node:stream';
import t from 'tap';
import type { CommandEntry } from '../../../src/cli/command.js';
import { command as validateCommand } from '../../../src/cli/commands/validate.js';
import { runCli } from '../../../src/cli/dispatch.js';
import { loadConfig, problemsFor } from '../../../src/config/config.js';
import { serverConfig } from '../../../src/config/server-config.js';
import type { Part } from '../../../src/config/setting.js';

t.test('unset and empty values are the defaults; a default may follow another setting', async (t) => {
  const { values, problems } = loadConfig({ MCPBASH_IDLE_TIMEOUT: '', MCPBASH_MAX_TOOL_OUTPUT_SIZE: '2048' });
  t.equal(values.MCPBASH_IDLE_TIMEOUT, 3600);
  t.equal(values.MCPBASH_MAX_TOOL_STDERR_SIZE, 2048, 'the stderr cap follows the output cap');
  t.equal(values.MCPBASH_MAX_RESOURCE_BYTES, 2048);
  t.equal(values.MCPBASH_MAX_LOGS_PER_MIN, 100, 'follows MCPBASH_MAX_PROGRESS_PER_MIN');
  t.same(values.MCPBASH_TOOL_ALLOWLIST, []);
  t.equal(values.MCPBASH_TOOL_ENV_MODE, 'minimal');
  t.equal(values.MCPBASH_ORPHAN_CHECK_ENABLED, true);
  t.equal(loadConfig({ MCPBASH_CI_MODE: 'yes' }).values.MCPBASH_ORPHAN_CHECK_ENABLED, false, 'CI mode turns it off');
  t.same(problems, []);
});

t.test('values are parsed by type: words, lists, fractions, level aliases', async (t) => {
  const { values, problems } = loadConfig({
    MCPBASH_TOOL_ALLOWLIST: 'a, b  c',
    MCPBASH_PRESERVE_STATE: ' ON ',
    MCPBASH_SHUTDOWN_TIMEOUT: '0.5',
    MCPBASH_TOOL_ENV_MODE: 'AllowList',
    MCPBASH_LOG_LEVEL: '1',
  });
  t.same(values.MCPBASH_TOOL_ALLOWLIST, ['a', 'b', 'c']);
  t.equal(values.MCPBASH_PRESERVE_STATE, true);
  t.equal(values.MCPBASH_SHUTDOWN_TIMEOUT, 0.5);
  t.equal(values.MCPBASH_TOOL_ENV_MODE, 'allowlist');
  t.equal(values.MCPBASH_LOG_LEVEL, 'debug');
  t.same(problems, []);
});

t.test('an unusable value is the default (a value above the maximum is capped), reported by name', async (t) => {
  const { values, problems } = loadConfig({
    MCPBASH_IDLE_TIMEOUT: 'soon',
    MCPBASH_MAX_CONCURRENT_REQUESTS: '0',
    MCPBASH_KILL_GRACE_SECS: '90',
    MCPBASH_QUIET: 'maybe',
    MCPBASH_TOOL_ENV_MODE: 'everything',
    MCPBASH_LOG_LEVEL: 'loud',
  });
  t.equal(values.MCPBASH_IDLE_TIMEOUT, 3600);
  t.equal(values.MCPBASH_MAX_CONCURRENT_REQUESTS, 16);
  t.equal(values.MCPBASH_KILL_GRACE_SECS, 60);
  t.equal(values.MCPBASH_QUIET, false);
  t.equal(values.MCPBASH_TOOL_ENV_MODE, 'minimal');
  t.equal(values.MCPBASH_LOG_LEVEL, undefined);
  t.same(
    problems.map((problem) => problem.message).sort(),
    [
      'MCPBASH_IDLE_TIMEOUT="soon" is not a whole number; using 3600',
      'MCPBASH_MAX_CONCURRENT_REQUESTS="0" is below 1; using 16',
      'MCPBASH_KILL_GRACE_SECS="90" is above 60; using 60',
      'MCPBASH_QUIET="maybe" is not true or false; using false',
      'MCPBASH_TOOL_ENV_MODE="everything" is not one of minimal, allowlist, inherit; using "minimal"',
      'MCPBASH_LOG_LEVEL="loud" is not one of debug, info, notice, warning, error, critical, alert, emergency; ignored',
    ].sort(),
    'one line each, naming the variable',
  );
  const config = loadConfig({ MCPBASH_IDLE_TIMEOUT: 'soon', MCP_TOOLS_TTL: 'x' });
  t.same(problemsFor(config, ['registry']), ['MCP_TOOLS_TTL="x" is not a number; using 5'], 'only what a part reads');
  t.same(problemsFor(config, ['cli:publish']), []);
  t.same(
    problemsFor(loadConfig({ MCPBASH_MAX_TEXT_BYTES: '100k' }), ['tools']),
    ['MCPBASH_MAX_TEXT_BYTES="100k" is not a whole number; using 102400'],
    'a variable only the SDK reads is still warned about by whoever runs tools (server, run-tool)',
  );
  const providers = loadConfig({
    MCPBASH_HTTPS_ALLOW_ALL: 'sure',
    MCPBASH_HTTPS_TIMEOUT: '100',
    MCPBASH_GIT_TIMEOUT: 'abc',
    MCPBASH_ENABLE_GIT_PROVIDER: 'YES',
  });
  t.same(
    problemsFor(providers, ['providers']),
    [
      'MCPBASH_HTTPS_ALLOW_ALL="sure" is not true or false; using false',
      'MCPBASH_HTTPS_TIMEOUT="100" is above 60; using 60',
      'MCPBASH_GIT_TIMEOUT="abc" is not a whole number; using 30',
    ],
    "the provider scripts' settings are warned about by the server, with the scripts' bounds",
  );
});

t.test('a relative MCPBASH_STATE_DIR or MCPBASH_TMP_ROOT is ignored, with a warning', async (t) => {
  const config = loadConfig({ MCPBASH_STATE_DIR: 'state', MCPBASH_TMP_ROOT: './tmp' });
  t.equal(config.values.MCPBASH_STATE_DIR, undefined);
  t.equal(config.values.MCPBASH_TMP_ROOT, undefined);
  t.same(problemsFor(config, ['project']).sort(), [
    'MCPBASH_STATE_DIR="state" is not an absolute path; ignored',
    'MCPBASH_TMP_ROOT="./tmp" is not an absolute path; ignored',
  ]);
  t.equal(loadConfig({ MCPBASH_STATE_DIR: '/var/tmp/s' }).values.MCPBASH_STATE_DIR, '/var/tmp/s');
});

t.test('validate warns about the size cap of UI views it applies', async (t) => {
  t.same(problemsFor(loadConfig({ MCPBASH_MAX_UI_RESOURCE_BYTES: 'z' }), validateCommand.reads ?? []), [
    'MCPBASH_MAX_UI_RESOURCE_BYTES="z" is not a whole number; using 1048576',
  ]);
});

t.test("the server's settings come from the table, once", async (t) => {
  const config = serverConfig(
    loadConfig({ MCPBASH_IDLE_TIMEOUT_ENABLED: 'false', MCPBASH_ROOTS_REQUEST_TIMEOUT: '2.5', MCP_TOOLS_TTL: '0' }),
  );
  t.equal(config.idleTimeoutMs, 0, 'MCPBASH_IDLE_TIMEOUT_ENABLED=false turns the idle timeout off');
  t.equal(config.rootsRequestTimeoutMs, 2500);
  t.equal(config.elicitationTimeoutMs, 35_000, 'the SDK waits 30 s, the server 5 more');
  t.equal(config.registry.ttlMs.tools, 0);
  t.equal(config.registryMaxBytes, config.registry.maxBytes, 'one variable, one value');
});

/** Runs a command that reads `parts` through the dispatcher; returns what it wrote on stderr. */
async function stderrOf(env: Record<string, string>, parts: readonly Part[] | undefined): Promise<string> {
  const stderr = new PassThrough();
  let text = '';
  stderr.on('data', (chunk: Buffer) => {
    text += chunk.toString();
  });
  const entry: CommandEntry = {
    name: 'probe',
    summary: 'test',
    load: async () => ({ name: 'probe', summary: 'test', usage: 'probe', reads: parts, run: async () => 0 }),
  };
  const io = { stdin: new PassThrough(), stdout: new PassThrough(), stderr, env, cwd: process.cwd() };
  const code = await runCli(['probe'], { io, assets: { files: new Map() } as never, commands: [entry] });
  if (code !== 0) throw new Error(`probe exited ${code}`);
  return text;
}

t.test('a command warns, before it runs, about the unusable settings it reads, and only those', async (t) => {
  const env = { MCPBASH_IDLE_TIMEOUT: 'soon', MCP_TOOLS_TTL: 'x' };
  t.equal(
    await stderrOf(env, ['server']),
    'mcp-bash: warning: MCPBASH_IDLE_TIMEOUT="soon" is not a whole number; using 3600\n',
  );
  t.equal(await stderrOf(env, undefined), '', 'a command that reads no settings (jq) says nothing');
  t.equal(await stderrOf({ ...env, MCPBASH_QUIET: 'true' }, ['server']), '', 'MCPBASH_QUIET silences it');
});
