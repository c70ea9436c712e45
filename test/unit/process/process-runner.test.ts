import { spawn } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import t from 'tap';
import { runProcess } from '../../../src/process/process-runner.js';
import { eventually } from '../../helpers/processes.js';
import { scratchDir } from '../../helpers/scratch.js';

const base = {
  command: 'bash',
  cwd: '/',
  env: process.env,
  maxStdoutBytes: 1 << 20,
  maxStderrBytes: 1 << 20,
  stderrTailBytes: 1024,
  killGraceMs: 1000,
};

/** Blocks the event loop until `check` holds (or `limitMs` passes), then `extraMs` more. */
function blockUntil(check: () => boolean, limitMs: number, extraMs = 0): void {
  const deadline = Date.now() + limitMs;
  while (!check() && Date.now() < deadline) {
    // busy: nothing else of this process runs meanwhile
  }
  const end = Date.now() + extraMs;
  while (Date.now() < end) {
    // busy
  }
}

t.test('a process that exited is read to the end even when the event loop lagged behind its exit', async (t) => {
  // The lag the server sees under load, made exact. Another child (C) has written and exited
  // before the loop polls, so that poll hands its output and a pending SIGCHLD to one batch.
  // C's output handler blocks the loop while the run (R) writes and exits, so R is reaped in
  // the same sweep as C, before R's output is read; C's exit handler then blocks the loop for
  // longer than any short wall-clock wait begun at R's exit. The loop next runs its timers,
  // and only after them reads R's pipe.
  const dir = scratchDir('mcpbash-runner-lag-');
  const go = join(dir, 'go');
  const written = join(dir, 'written');
  const cDone = join(dir, 'c-done');
  const run = runProcess({
    ...base,
    args: ['-c', 'while [ ! -e "$1" ]; do sleep 0.01; done; printf "fast"; : >"$2"', 'run', go, written],
  });
  const other = spawn('bash', ['-c', 'printf go; : >"$1"', 'other', cDone], { stdio: ['ignore', 'pipe', 'ignore'] });
  other.once('exit', () => blockUntil(() => false, 600));
  other.stdout.once('data', () => {
    spawn('touch', [go]);
    blockUntil(() => existsSync(written), 5000, 200);
  });
  blockUntil(() => existsSync(cDone), 5000, 100);
  const result = await run;
  t.equal(result.stdout.toString(), 'fast', 'what the process wrote before it exited is in the result');
  t.equal(result.exitCode, 0);
});

t.test('a pipe held by a living process of the group is read until that process is gone', async (t) => {
  // The background child ignores TERM, so it lives until the KILL at the end of the grace
  // period, and what it writes meanwhile belongs to the run. The tool exits once the child
  // ignores TERM (the marker).
  const marker = join(scratchDir('mcpbash-runner-late-'), 'ignoring');
  const script =
    '( trap "" TERM; : >"$1"; sleep 0.3; echo late; exec sleep 30 ) & ' +
    'until [ -e "$1" ]; do sleep 0.01; done; echo early';
  const started = Date.now();
  const result = await runProcess({ ...base, killGraceMs: 800, args: ['-c', script, 'tool', marker] });
  t.equal(result.stdout.toString(), 'early\nlate\n');
  t.equal(result.pipesHeldOpen, false, 'the KILL closed the pipe: nothing was cut');
  t.ok(Date.now() - started >= 700, `settled after the KILL (${Date.now() - started} ms)`);
});

t.test('a pipe held by a process outside the group is cut once the group is gone, and the run says so', async (t) => {
  const dir = scratchDir('mcpbash-runner-setsid-');
  const pidFile = join(dir, 'daemon');
  const started = Date.now();
  const result = await runProcess({
    ...base,
    // The tool waits until the daemon is in its own session (TERM to the group misses it).
    args: [
      '-c',
      'setsid bash -c \'printf "%s" "$$" >"$0"; exec sleep 30\' "$1" & until [ -s "$1" ]; do sleep 0.01; done; ' +
        'echo started',
      'tool',
      pidFile,
    ],
  });
  t.teardown(() => {
    try {
      process.kill(Number(readFileSync(pidFile, 'utf8')), 'SIGKILL');
    } catch {
      // gone
    }
  });
  t.equal(result.stdout.toString(), 'started\n', 'what the tool wrote is kept');
  t.equal(result.pipesHeldOpen, true);
  t.equal(result.exitCode, 0);
  t.ok(Date.now() - started < 3000, `not held by the daemon (${Date.now() - started} ms)`);
});

t.test('a stopped process that ignores TERM is KILLed at the end of the grace period', async (t) => {
  const marker = join(scratchDir('mcpbash-runner-kill-'), 'ignoring');
  const stop = new AbortController();
  const run = runProcess({
    ...base,
    killGraceMs: 300,
    signal: stop.signal,
    args: ['-c', 'trap "" TERM; : >"$1"; sleep 30', 'tool', marker],
  });
  // Stopped (as a timeout does) once TERM is ignored.
  t.ok(await eventually(() => existsSync(marker)), 'the process ignores TERM');
  const stopped = Date.now();
  stop.abort({ kind: 'timeout' });
  const result = await run;
  t.equal(result.timedOut, true);
  t.equal(result.signal, 'SIGKILL');
  t.ok(Date.now() - stopped < 2000, `ended at the KILL (${Date.now() - stopped} ms after the stop)`);
});
