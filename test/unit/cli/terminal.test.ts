import { PassThrough } from 'node:stream';
import t from 'tap';
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

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

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
  const value = await withProgress(io, 'scanning the tools', false, async () => {
    await sleep(1400);
    return 42;
  });
  t.equal(value, 42, "the work's result is returned");
  t.match(stderr(), /\r. scanning the tools \(1s\)\u001b\[K/, 'label and elapsed seconds');
  t.match(stderr(), /\r\u001b\[K$/, 'the line is erased when the work ends');
});

t.test('progress: nothing for quick work, off a terminal, or when quiet', async (t) => {
  const quick = fakeIo(true);
  await withProgress(quick.io, 'quick', false, async () => sleep(200));
  t.equal(quick.stderr(), '', 'work under a second shows nothing');
  const pipe = fakeIo(false);
  await withProgress(pipe.io, 'piped', false, async () => sleep(1300));
  t.equal(pipe.stderr(), '', 'stderr is not a terminal');
  const quiet = fakeIo(true);
  await withProgress(quiet.io, 'quiet', true, async () => sleep(1300));
  t.equal(quiet.stderr(), '', '--quiet');
});

t.test('progress: a failure still erases the line and propagates', async (t) => {
  const { io, stderr } = fakeIo(true);
  await t.rejects(
    withProgress(io, 'failing', false, async () => {
      await sleep(1200);
      throw new Error('boom');
    }),
    /boom/,
  );
  t.match(stderr(), /\r\u001b\[K$/);
});

t.test('a wrapper script keeps a server name with line breaks inside its comment', async (t) => {
  const { wrapperScript } = await import('../../../src/cli/config/wrapper-script.js');
  const script = wrapperScript('evil\nrm -rf ~\n#', { command: '/usr/local/bin/mcp-bash', args: [] }, false);
  t.notOk(script.split('\n').includes('rm -rf ~'), 'no line of the name becomes a command');
  t.match(script, /^# Starts the "evil rm -rf ~ #" MCP server/m);
});
