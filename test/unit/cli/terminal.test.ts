import { PassThrough } from 'node:stream';
import { Clock } from '@tapjs/clock';
import t, { type Test } from 'tap';
import type { CliIo } from '../../../src/cli/command.js';
import { withProgress } from '../../../src/cli/progress.js';
import { colorEnabled, palette } from '../../../src/cli/terminal.js';

/** A CliIo whose stderr pretends (or not) to be a terminal, recording what is written. */
function fakeIo(isTTY: boolean): { io: CliIo; stderr: () => string } {
  const stderr = new PassThrough() as PassThrough & { isTTY?: boolean };
  stderr.isTTY = isTTY;
  const chunks: Buffer[] = [];
  stderr.on('data', (chunk: Buffer) => chunks.push(chunk));
  const io = { stdin: new PassThrough(), stdout: new PassThrough(), stderr, env: {}, cwd: '/' } as unknown as CliIo;
  return { io, stderr: () => Buffer.concat(chunks).toString('utf8') };
}

/**
 * Work that takes exactly `ms` of tap's fake clock: the test moves the clock in 100 ms steps
 * (the spinner's tick), letting the stream's events through after each.
 */
async function timedWork<T>(t: Test, run: (work: () => Promise<T>) => Promise<T>, ms: number, outcome: () => T) {
  const clock = new Clock();
  t.teardown(clock.enter());
  let finish!: () => void;
  const done = new Promise<void>((resolve) => {
    finish = resolve;
  });
  const result = run(async () => {
    await done;
    return outcome();
  });
  for (let passed = 0; passed < ms; passed += 100) {
    clock.advance(100);
    for (let i = 0; i < 5; i += 1) await new Promise((resolve) => process.nextTick(resolve));
  }
  finish();
  return result;
}

t.test('colours: only on a terminal, never with NO_COLOR or TERM=dumb; FORCE_COLOR asks for them', async (t) => {
  t.equal(colorEnabled({ isTTY: true }, {}), true);
  t.equal(colorEnabled({ isTTY: false }, {}), false, 'not on a pipe or file');
  t.equal(colorEnabled({}, {}), false);
  t.equal(colorEnabled({ isTTY: true }, { NO_COLOR: '1' }), false, 'NO_COLOR wins on a terminal');
  t.equal(colorEnabled({ isTTY: true }, { NO_COLOR: '1', FORCE_COLOR: '1' }), false, 'NO_COLOR wins over FORCE_COLOR');
  t.equal(colorEnabled({ isTTY: true }, { NO_COLOR: '' }), true, 'an empty NO_COLOR is unset (no-color.org)');
  t.equal(colorEnabled({ isTTY: true }, { TERM: 'dumb' }), false);
  t.equal(colorEnabled({ isTTY: false }, { FORCE_COLOR: '1' }), true, 'an explicit request off a terminal');
  t.equal(colorEnabled({ isTTY: false }, { FORCE_COLOR: '0' }), false);
  t.equal(palette(true).red('x'), '\u001b[31mx\u001b[39m');
  t.equal(palette(false).red('x'), 'x');
});

t.test('progress: a spinner after a second of work on a terminal, erased at the end', async (t) => {
  const { io, stderr } = fakeIo(true);
  const value = await timedWork(
    t,
    (work) => withProgress(io, 'scanning the tools', false, work),
    1400,
    () => 42,
  );
  t.equal(value, 42, "the work's result is returned");
  const frames = stderr()
    .split('\r')
    .filter((part) => part !== '');
  t.equal(frames.length, 6, 'a frame every 100 ms from the first second on (1.0 to 1.4 s), then the erase');
  t.match(frames[0], /^. scanning the tools \(1s\)\u001b\[K$/, 'label and elapsed seconds');
  t.equal(frames.at(-1), '\u001b[K', 'the line is erased when the work ends');
});

t.test('progress: nothing for quick work, off a terminal, or when quiet', async (t) => {
  const quick = fakeIo(true);
  await timedWork(
    t,
    (work) => withProgress(quick.io, 'quick', false, work),
    900,
    () => undefined,
  );
  t.equal(quick.stderr(), '', 'work under a second shows nothing');
  const pipe = fakeIo(false);
  await timedWork(
    t,
    (work) => withProgress(pipe.io, 'piped', false, work),
    1300,
    () => undefined,
  );
  t.equal(pipe.stderr(), '', 'stderr is not a terminal');
  const quiet = fakeIo(true);
  await timedWork(
    t,
    (work) => withProgress(quiet.io, 'quiet', true, work),
    1300,
    () => undefined,
  );
  t.equal(quiet.stderr(), '', '--quiet');
});

t.test('progress: a failure still erases the line and propagates', async (t) => {
  const { io, stderr } = fakeIo(true);
  await t.rejects(
    timedWork(
      t,
      (work) => withProgress(io, 'failing', false, work),
      1200,
      () => {
        throw new Error('boom');
      },
    ),
    /boom/,
  );
  t.match(stderr(), /\(1s\)\u001b\[K\r\u001b\[K$/, 'shown, then erased');
});

t.test('a wrapper script keeps a server name with line breaks inside its comment', async (t) => {
  const { wrapperScript } = await import('../../../src/cli/config/wrapper-script.js');
  const script = wrapperScript('evil\nrm -rf ~\n#', { command: '/usr/local/bin/mcp-bash', args: [] }, false);
  t.notOk(script.split('\n').includes('rm -rf ~'), 'no line of the name becomes a command');
  t.match(script, /^# Starts the "evil rm -rf ~ #" MCP server/m);
});
