import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdirSync, realpathSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import t from 'tap';
import { readFileUri } from '../../src/providers/file-provider.js';

// A local writer swaps resources/x.txt between a regular file and a link to a file outside
// the roots, as fast as it can, while reads go on: not one read may return the outside file.
t.test('the in-process file provider never serves a file swapped for an outside link', async (t) => {
  const dir = realpathSync(t.testdir());
  const root = join(dir, 'resources');
  mkdirSync(root);
  mkdirSync(join(dir, 'outside'));
  writeFileSync(join(dir, 'outside', 'secret.txt'), 'SECRET');
  writeFileSync(join(root, 'inside.txt'), 'inside');
  const swap = [
    'while :; do',
    `  ln -sf ${join(dir, 'outside', 'secret.txt')} ${join(root, 'x.tmp')} && mv -f ${join(root, 'x.tmp')} ` +
      `${join(root, 'x.txt')}`,
    `  cp ${join(root, 'inside.txt')} ${join(root, 'y.tmp')} && mv -f ${join(root, 'y.tmp')} ${join(root, 'x.txt')}`,
    'done',
  ].join('\n');
  // Its own process group, stopped (ln, cp and mv included) before the test ends: tap
  // removes the test dir in a teardown that runs before ours, and a writer still busy
  // there made that fail and left the writer running until the file's timeout.
  const writer = spawn('bash', ['-c', swap], { stdio: 'ignore', detached: true });
  const writerExited = once(writer, 'exit');

  const counts = { inside: 0, refused: 0, leaked: 0 };
  const uri = `file://${root}/x.txt`;
  const until = Date.now() + 2000;
  try {
    while (Date.now() < until) {
      const outcome = await readFileUri({ uri, cwd: dir, rootLists: [[root]], maxBytes: 1024 });
      const text = outcome.stdout.toString();
      if (text.includes('SECRET')) counts.leaked += 1;
      else if (outcome.exitCode === 0) counts.inside += 1;
      else counts.refused += 1;
    }
  } finally {
    process.kill(-(writer.pid as number), 'SIGKILL');
    await writerExited;
  }
  t.equal(counts.leaked, 0, `no outside content (${counts.inside} reads served, ${counts.refused} refused)`);
  t.ok(counts.inside > 0 && counts.refused > 0, 'the race really happened: some reads saw each state');
});
