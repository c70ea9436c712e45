import { rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import t from 'tap';
import { jsonTools, sandbox } from '../helpers/sdk-harness.js';

// Progress and logging are pure Bash: the output is the same with any JSON tool. Run with
// jq and in minimal mode.
const tools = jsonTools().filter((tool) => tool.name === 'jq' || tool.name === 'minimal');

for (const tool of tools) {
  t.test(`progress and logging with ${tool.name}`, { skip: tool.skip ?? false }, async (t) => {
    t.test('mcp_progress appends full notifications/progress lines', async (t) => {
      const box = sandbox(t);
      const run = await box.run(
        `mcp_progress 25 'Copying "a"' 100; mcp_progress 150 over; mcp_progress -5 neg; mcp_progress 50.5 ` +
          `float; mcp_progress 007 zeros 0042; mcp_progress 99999999999999999999 huge x`,
        { tool, progressToken: 'tok-1' },
      );
      t.equal(run.code, 0, run.stderr);
      t.equal(run.stdout, '');
      const raw = box.read('progress');
      t.ok(raw.endsWith('\n') && raw.split('\n').length === 7, 'one line per call');
      t.same(box.lines('progress'), [
        {
          jsonrpc: '2.0',
          method: 'notifications/progress',
          params: { progressToken: 'tok-1', progress: 25, total: 100, message: 'Copying "a"' },
        },
        {
          jsonrpc: '2.0',
          method: 'notifications/progress',
          params: { progressToken: 'tok-1', progress: 100, total: null, message: 'over' },
        },
        {
          jsonrpc: '2.0',
          method: 'notifications/progress',
          params: { progressToken: 'tok-1', progress: 0, total: null, message: 'neg' },
        },
        {
          jsonrpc: '2.0',
          method: 'notifications/progress',
          params: { progressToken: 'tok-1', progress: 0, total: null, message: 'float' },
        },
        {
          jsonrpc: '2.0',
          method: 'notifications/progress',
          params: { progressToken: 'tok-1', progress: 7, total: 42, message: 'zeros' },
        },
        {
          jsonrpc: '2.0',
          method: 'notifications/progress',
          params: { progressToken: 'tok-1', progress: 100, total: null, message: 'huge' },
        },
      ]);
    });

    t.test('numeric progress tokens stay numbers; invalid numbers become strings', async (t) => {
      const box = sandbox(t);
      await box.run('mcp_progress 1 a', { tool, progressToken: '42' });
      await box.run('mcp_progress 1 b', { tool, progressToken: '007' });
      const tokens = box
        .lines('progress')
        .map((line) => (line as { params: { progressToken: unknown } }).params.progressToken);
      t.same(tokens, [42, '007']);
    });

    t.test('without a progress token the line carries none (activity only); without a stream, nothing', async (t) => {
      const box = sandbox(t);
      const run = await box.run(
        'mcp_progress 10 x; MCP_PROGRESS_TOKEN=t MCP_PROGRESS_STREAM= mcp_progress 10 y; echo ok',
        { tool },
      );
      t.equal(run.stdout, 'ok\n');
      t.same(
        box.lines('progress'),
        [
          {
            jsonrpc: '2.0',
            method: 'notifications/progress',
            params: { progressToken: null, progress: 10, total: null, message: 'x' },
          },
        ],
        'one line, for the server to count as activity (it sends the client nothing without a token)',
      );
    });

    t.test('mcp_log writes notifications/message lines with normalised levels', async (t) => {
      const box = sandbox(t);
      const run = await box.run(
        `mcp_log ERROR db '{"code":5}'; mcp_log bogus app '"x"'; mcp_log info app ''
         mcp_log_debug l d; mcp_log_info l i; mcp_log_warn l w; mcp_log_error l $'e\\n"2"'`,
        { tool },
      );
      t.equal(run.code, 0);
      t.match(run.stderr, /mcp_log: invalid level 'bogus', defaulting to 'info'/);
      const params = box.lines('log').map((line) => (line as { method: string; params: unknown }).params);
      t.ok(box.lines('log').every((line) => (line as { method: string }).method === 'notifications/message'));
      t.same(params, [
        { level: 'error', logger: 'db', data: { code: 5 } },
        { level: 'info', logger: 'app', data: 'x' },
        { level: 'info', logger: 'app', data: null },
        { level: 'debug', logger: 'l', data: 'd' },
        { level: 'info', logger: 'l', data: 'i' },
        { level: 'warning', logger: 'l', data: 'w' },
        { level: 'error', logger: 'l', data: 'e\n"2"' },
      ]);
    });

    t.test('mcp_log without a stream does nothing', async (t) => {
      const box = sandbox(t);
      const run = await box.run('MCP_LOG_STREAM= mcp_log_info l m; echo ok', { tool });
      t.equal(run.stdout, 'ok\n');
      t.equal(box.read('log'), '');
    });
  });
}

t.test('mcp_is_cancelled follows the cancel marker and starts no process', async (t) => {
  const box = sandbox(t);
  const before = await box.run(
    'mcp_is_cancelled && echo yes || echo no; [ "$MCP_TOOL_CANCELLATION_FILE" = "$MCP_CANCEL_FILE" ] && echo exported',
  );
  t.equal(before.stdout, 'no\nexported\n');
  writeFileSync(box.files.cancel, '');
  const after = await box.run('mcp_is_cancelled && echo yes || echo no');
  t.equal(after.stdout, 'yes\n');
  const unset = await box.run('mcp_is_cancelled && echo yes || echo no', { env: { MCP_CANCEL_FILE: undefined } });
  t.equal(unset.stdout, 'no\n', 'no marker variable: not cancelled');
  // A stale MCP_TOOL_CANCELLATION_FILE (say, inherited from an outer call) whose marker exists.
  const stale = join(box.dir, 'stale-marker');
  writeFileSync(stale, '');
  rmSync(box.files.cancel, { force: true });
  const serverWins = await box.run(
    'printf "%s\\n" "$MCP_TOOL_CANCELLATION_FILE"; mcp_is_cancelled && echo yes || echo no',
    {
      env: { MCP_TOOL_CANCELLATION_FILE: stale },
    },
  );
  t.equal(
    serverWins.stdout,
    `${box.files.cancel}\nno\n`,
    'MCP_CANCEL_FILE replaces a pre-set MCP_TOOL_CANCELLATION_FILE',
  );
  const fallback = await box.run(
    'printf "%s\\n" "$MCP_TOOL_CANCELLATION_FILE"; mcp_is_cancelled && echo yes || echo no',
    {
      env: { MCP_TOOL_CANCELLATION_FILE: stale, MCP_CANCEL_FILE: '' },
    },
  );
  t.equal(fallback.stdout, `${stale}\nyes\n`, 'without MCP_CANCEL_FILE the pre-set name is kept');
  writeFileSync(box.files.cancel, '');
  // With PATH emptied any external command would fail; the body has no subshell syntax.
  const pure = await box.run('PATH=/nonexistent; mcp_is_cancelled; echo "$?"; declare -f mcp_is_cancelled');
  t.match(pure.stdout, /^0\n/);
  const body = pure.stdout.slice(2);
  t.notMatch(body, /\$\(|`|\||\(\s*[a-z]/, 'no command substitution, pipe or subshell');
});

t.test('mcp_debug appends timestamped lines to MCPBASH_DEBUG_LOG', async (t) => {
  const box = sandbox(t);
  const run = await box.run('mcp_debug one two; mcp_debug three; MCPBASH_DEBUG_LOG= mcp_debug ignored');
  t.equal(run.code, 0);
  t.match(box.read('debug'), /^\[\d\d:\d\d:\d\d\] one two\n\[\d\d:\d\d:\d\d\] three\n$/);
});

t.test('mcp_with_retry', async (t) => {
  const box = sandbox(t);
  const counter = `${box.dir}/count`;
  const flaky = box.fakeCommand(
    'flaky',
    `n=$(cat ${counter} 2>/dev/null || echo 0); n=$((n + 1)); echo "$n" > ${counter}; [ "$n" -ge "$1" ] && ` +
      `exit 0; exit "$2"`,
  );
  const attempts = async (script: string) => {
    writeFileSync(counter, '0');
    const run = await box.run(script);
    return { run, count: Number((await import('node:fs')).readFileSync(counter, 'utf8').trim()) };
  };
  const transient = await attempts(`mcp_with_retry 5 0.01 -- ${flaky} 3 7; echo "rc=$?"`);
  t.equal(transient.run.stdout, 'rc=0\n');
  t.equal(transient.count, 3, 'retried until success');
  const gaveUp = await attempts(`mcp_with_retry 3 0.01 -- ${flaky} 99 9 && rc=0 || rc=$?; echo "rc=$rc"`);
  t.equal(gaveUp.run.stdout, 'rc=9\n');
  t.equal(gaveUp.count, 3, 'stops at max attempts and returns the last status');
  for (const permanent of [1, 2]) {
    const run = await attempts(`mcp_with_retry 5 0.01 -- ${flaky} 99 ${permanent} && rc=0 || rc=$?; echo "rc=$rc"`);
    t.equal(run.run.stdout, `rc=${permanent}\n`);
    t.equal(run.count, 1, `status ${permanent} is not retried`);
  }
  const noSeparator = await attempts(`mcp_with_retry 2 0.01 ${flaky} 2 4; echo "rc=$?"`);
  t.equal(noSeparator.run.stdout, 'rc=0\n', '-- is optional');
  t.match(box.read('debug'), /mcp_with_retry: attempt 1\/5 failed \(exit 7\), retrying in 0\.01\ds/);
  const bad = await box.run(
    'mcp_with_retry x 1 -- true && rc=0 || rc=$?; mcp_with_retry 2 fast -- true && rc2=0 || rc2=$?; ' +
      'mcp_with_retry 2 1 && rc3=0 || rc3=$?; echo "$rc $rc2 $rc3"',
  );
  t.equal(bad.stdout, '1 1 2\n');
  t.match(
    bad.stderr,
    /max_attempts must be a positive integer[\s\S]*base_delay must be a number[\s\S]*a command is required/,
  );
});
