import t from 'tap';
import { exitStatus, failureMessage, type ProcessResult, processFailure } from '../../../src/process/process-result.js';
import { runProcess } from '../../../src/process/process-runner.js';

/** A run that started, ran to its end and exited 0, with `changes` applied. */
function result(changes: Partial<ProcessResult> = {}): ProcessResult {
  return {
    exitCode: 0,
    signal: null,
    timedOut: false,
    isCanceled: false,
    overflow: undefined,
    stdout: Buffer.alloc(0),
    stdoutBytes: 0,
    stderrHead: '',
    stderrTail: '',
    stderrBytes: 0,
    spawnError: undefined,
    durationMs: 1,
    pipesHeldOpen: false,
    ...changes,
  };
}

t.test('one order decides what a failed run means: not started, cancelled, timed out, overflow, exit', async (t) => {
  const everything = {
    exitCode: null,
    signal: 'SIGTERM' as const,
    timedOut: true,
    isCanceled: true,
    overflow: 'stderr' as const,
  };
  t.match(processFailure(result({ ...everything, spawnError: new Error('ENOENT') })), { kind: 'not-started' });
  t.same(processFailure(result(everything)), { kind: 'cancelled' });
  t.same(processFailure(result({ ...everything, isCanceled: false })), { kind: 'timed-out' });
  t.same(processFailure(result({ ...everything, isCanceled: false, timedOut: false })), {
    kind: 'overflow',
    stream: 'stderr',
  });
  t.same(processFailure(result({ exitCode: null, signal: 'SIGTERM' })), {
    kind: 'exit',
    status: 143,
    signal: 'SIGTERM',
  });
  t.same(processFailure(result({ exitCode: 3 })), { kind: 'exit', status: 3, signal: null });
  t.equal(processFailure(result()), undefined, 'exit 0 is success');
  t.equal(exitStatus({ exitCode: null, signal: 'SIGKILL' }), 137);
});

t.test('the default sentences, and a caller keeping its own', async (t) => {
  const wording = { subject: 'Widget', timeoutSecs: 2, limits: { stdout: 10, setting: 'MCPBASH_X' } };
  t.equal(
    failureMessage({ kind: 'not-started', error: new Error('no bash') }, wording),
    'Widget could not be started: no bash',
  );
  t.equal(failureMessage({ kind: 'cancelled' }, wording), 'Widget was cancelled');
  t.equal(failureMessage({ kind: 'timed-out' }, wording), 'Widget timed out after 2s');
  t.equal(
    failureMessage({ kind: 'overflow', stream: 'stdout' }, wording),
    'Widget wrote more than 10 bytes to stdout (MCPBASH_X)',
  );
  t.equal(failureMessage({ kind: 'exit', status: 4, signal: null }, wording), 'Widget exited with status 4');
  t.equal(failureMessage({ kind: 'exit', status: 143, signal: 'SIGTERM' }, wording), 'Widget was killed by SIGTERM');
  const own = {
    ...wording,
    override: (f: { kind: string }) => (f.kind === 'cancelled' ? 'Widget read cancelled' : undefined),
  };
  t.equal(failureMessage({ kind: 'cancelled' }, own), 'Widget read cancelled');
  t.equal(failureMessage({ kind: 'timed-out' }, own), 'Widget timed out after 2s', 'other kinds keep the default');
});

t.test('runProcess: a timeout stops the group and reads as timed out, a cancellation as cancelled', async (t) => {
  const base = {
    command: 'sh',
    args: ['-c', 'sleep 30'],
    cwd: process.cwd(),
    env: { PATH: process.env.PATH },
    maxStdoutBytes: 1024,
    maxStderrBytes: 1024,
    stderrTailBytes: 256,
    killGraceMs: 200,
  };
  const timedOut = await runProcess({ ...base, timeoutMs: 100 });
  t.match(timedOut, { timedOut: true, isCanceled: false, signal: 'SIGTERM' });
  t.ok(timedOut.durationMs < 5000, `stopped after ${timedOut.durationMs} ms`);
  const controller = new AbortController();
  const cancelled = runProcess({ ...base, signal: controller.signal });
  controller.abort();
  t.match(await cancelled, { timedOut: false, isCanceled: true });
  const noisy = await runProcess({ ...base, args: ['-c', 'head -c 5000 /dev/zero; sleep 30'] });
  t.match(noisy, { overflow: 'stdout', timedOut: false, isCanceled: false });
  const missing = await runProcess({ ...base, command: '/nonexistent/mcp-bash-test' });
  t.match(processFailure(missing), { kind: 'not-started' });
});
