import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import t from 'tap';
import { fixtureProject } from '../../helpers/fixtures.js';
import { type McpProcess, startInitialized } from '../../helpers/mcp-process.js';
import { toolEnv } from '../../helpers/run-binary.js';

type Result = {
  content: Array<{ text: string }>;
  structuredContent?: { success: boolean; error: Record<string, unknown> };
  isError?: boolean;
  _meta?: Record<string, unknown>;
};

/**
 * A progress-extended tool whose only activity is mcp_run_with_progress matching lines it
 * cannot turn into progress (and no progress token): 1.6 s of output against a 1 s timeout.
 */
function addPassthroughActivityTool(project: string): void {
  const dir = join(project, 'tools', 'passthrough-activity');
  mkdirSync(dir);
  writeFileSync(
    join(dir, 'tool.meta.json'),
    JSON.stringify({ name: 'passthrough-activity', timeoutSecs: 1, progressExtendsTimeout: true, maxTimeoutSecs: 20 }),
  );
  writeFileSync(
    join(dir, 'tool.sh'),
    [
      '#!/usr/bin/env bash',
      'source "$MCP_SDK/tool-sdk.sh"',
      "mcp_run_with_progress --pattern '^tick' --extract match1 --interval 0.05 -- \\",
      "  bash -c 'for i in 1 2 3 4; do echo tick >&2; sleep 0.4; done' >/dev/null",
      'mcp_result_success \'"outlived the timeout"\'',
      '',
    ].join('\n'),
    { mode: 0o755 },
  );
}

let server: McpProcess;
t.before(async () => {
  const project = fixtureProject('tools');
  addPassthroughActivityTool(project);
  server = await startInitialized({
    projectRoot: project,
    env: toolEnv({
      MCPBASH_MAX_TOOL_OUTPUT_SIZE: String(1024 * 1024),
      MCPBASH_MAX_TOOL_STDERR_SIZE: String(256 * 1024),
      MCPBASH_KILL_GRACE_SECS: '0.5',
    }),
  });
});
t.teardown(() => server.close());

t.test('a flood of stdout is cut off with -32603, never a partial payload', async (t) => {
  const started = Date.now();
  const response = await server.request('tools/call', { name: 'huge-stdout' });
  t.same(response.error, {
    code: -32603,
    message: 'Tool output exceeded 1048576 bytes',
    data: { tool: 'huge-stdout', limit: 1048576 },
  });
  t.ok(Date.now() - started < 10_000, 'stopped early, not at the timeout');
});

t.test('a flood of stderr is cut off with -32603', async (t) => {
  t.match((await server.request('tools/call', { name: 'huge-stderr' })).error, {
    code: -32603,
    message: 'Tool stderr exceeded 262144 bytes',
  });
});

t.test('timeouts are isError results with the structured reason (D3), all at once', async (t) => {
  const [fixed, idle, max] = await Promise.all(
    ['timeout-fixed', 'timeout-idle', 'timeout-max'].map((name) =>
      server.request('tools/call', { name }, undefined, 30_000),
    ),
  );
  const fixedResult = fixed?.result as Result;
  t.equal(fixedResult.isError, true);
  t.equal(fixedResult.content[0]?.text, 'Tool timed out after 1s\n\nSuggestion: Ask for less data.');
  t.match(fixedResult.structuredContent, {
    success: false,
    error: { type: 'timeout', reason: 'fixed', timeoutSecs: 1, hint: 'Ask for less data.', exitCode: 143 },
  });
  t.match(fixedResult._meta, { exitCode: 143, stderr: 'about to hang\n' });
  const idleResult = idle?.result as Result;
  t.equal(idleResult.content[0]?.text, 'Tool timed out after 1s (no progress reported)');
  t.match(idleResult.structuredContent?.error, { reason: 'idle', progressExtendsTimeout: true, maxTimeoutSecs: 20 });
  const maxResult = max?.result as Result;
  t.equal(maxResult.content[0]?.text, 'Tool exceeded maximum runtime of 2s');
  t.match(maxResult.structuredContent?.error, { reason: 'max_exceeded', timeoutSecs: 1, maxTimeoutSecs: 2 });
  t.match(server.stderr, /timeout-fixed reported progress but timed out after 1s; set "progressExtendsTimeout"/);
});

t.test('the default tools/call timeout (D4) and a per-request timeoutSecs', async (t) => {
  const quick = await startInitialized({
    projectRoot: fixtureProject('tools'),
    env: toolEnv({ MCPBASH_DEFAULT_TOOL_TIMEOUT: '1' }),
  });
  t.match(
    (await quick.request('tools/call', { name: 'inline-header' })).result,
    { isError: false },
    'quick tools are unaffected',
  );
  const withDefault = await quick.request('tools/call', { name: 'progress-live' });
  t.match(
    withDefault.result,
    { isError: true, structuredContent: { error: { type: 'timeout', reason: 'fixed', timeoutSecs: 1 } } },
    'a tool without timeoutSecs gets MCPBASH_DEFAULT_TOOL_TIMEOUT',
  );
  await quick.close();
  const perRequest = await server.request('tools/call', { name: 'sleeper', arguments: { seconds: 5 }, timeoutSecs: 1 });
  t.match(perRequest.result, { isError: true, structuredContent: { error: { reason: 'fixed', timeoutSecs: 1 } } });
  t.match((await server.request('tools/call', { name: 'sleeper', timeoutSecs: 'soon' })).error, { code: -32602 });
  // 1.x (§3.5): null is no request timeout; digits in a string count, as in tool metadata.
  const noTimeout = await server.request('tools/call', {
    name: 'sleeper',
    arguments: { seconds: 0 },
    timeoutSecs: null,
  });
  t.match(noTimeout.result, { isError: false }, 'timeoutSecs: null runs the tool');
  const digits = await server.request('tools/call', { name: 'sleeper', arguments: { seconds: 5 }, timeoutSecs: '1' });
  t.match(digits.result, { isError: true, structuredContent: { error: { reason: 'fixed', timeoutSecs: 1 } } });
});

t.test('a line mcp_run_with_progress matches is activity, even with no progress stream yet', async (t) => {
  // The server does not create the progress stream: the SDK's first touch must.
  const response = await server.request('tools/call', { name: 'passthrough-activity' }, undefined, 30_000);
  t.match(response.result, { isError: false, structuredContent: { result: 'outlived the timeout' } });
});
