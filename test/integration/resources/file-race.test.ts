import { spawn } from 'node:child_process';
import { mkdirSync, realpathSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import t, { type Test } from 'tap';
import { fixtureProject } from '../../helpers/fixtures.js';
import { type McpProcess, startInitialized } from '../../helpers/mcp-process.js';
import { isolatedEnv } from '../../helpers/run-binary.js';
import { scratchDir } from '../../helpers/scratch.js';

const SECRET = 'OUTSIDE-THE-ROOTS';
const READ_FOR_MS = 2500;

/**
 * A local writer that keeps swapping `path` between a regular file and a symbolic link to
 * `outside` (each swap an atomic rename), until killed.
 */
function swapper(path: string, regular: { dir: boolean; content: string }, outside: string) {
  const script = `
    const fs = require('node:fs');
    const [path, outside, isDir, content] = process.argv.slice(1);
    const temp = path + '.swap';
    const pause = new Int32Array(new SharedArrayBuffer(4));
    for (let i = 0; ; i += 1) {
      // A tenth of a millisecond per state: far quicker than a provider run, and it leaves
      // the CPU to the server, so the test gets through hundreds of reads.
      Atomics.wait(pause, 0, 0, 0.1);
      fs.rmSync(temp, { recursive: true, force: true });
      if (i % 2) fs.symlinkSync(outside, temp);
      else if (isDir === 'dir') { fs.mkdirSync(temp); fs.writeFileSync(temp + '/x.txt', content); }
      else fs.writeFileSync(temp, content);
      if (isDir === 'dir') fs.rmSync(path, { recursive: true, force: true });
      fs.renameSync(temp, path);
    }`;
  const args = ['-e', script, path, outside, regular.dir ? 'dir' : 'file', regular.content];
  return spawn(process.execPath, args, { stdio: 'ignore' });
}

/** Reads `uri` from four concurrent loops for READ_FOR_MS; counts what came back. */
async function hammer(server: McpProcess, uri: string) {
  const counts = { inside: 0, outside: 0, refused: 0 };
  const deadline = Date.now() + READ_FOR_MS;
  const loop = async () => {
    while (Date.now() < deadline) {
      const reply = await server.request('resources/read', { uri });
      const text = (reply.result as { contents?: Array<{ text?: string }> } | undefined)?.contents?.[0]?.text;
      if (text?.includes(SECRET)) counts.outside += 1;
      else if (text !== undefined) counts.inside += 1;
      else counts.refused += 1;
    }
  };
  await Promise.all([loop(), loop(), loop(), loop()]);
  return counts;
}

async function raceTest(t: Test, dirSwap: boolean) {
  const project = fixtureProject('resources');
  const outsideDir = realpathSync(scratchDir('mcpbash-outside-'));
  writeFileSync(join(outsideDir, 'x.txt'), `${SECRET}\n`);
  const raceDir = join(project, 'resources', 'race');
  mkdirSync(raceDir);
  const swapped = dirSwap ? join(raceDir, 'd') : join(raceDir, 'x.txt');
  const uri = `file://${dirSwap ? join(swapped, 'x.txt') : swapped}`;
  const server = await startInitialized({ projectRoot: project, env: isolatedEnv() });
  const readText = async () =>
    ((await server.request('resources/read', { uri })).result as { contents: Array<{ text: string }> } | undefined)
      ?.contents[0]?.text;
  if (dirSwap) mkdirSync(swapped);
  writeFileSync(join(dirSwap ? swapped : raceDir, 'x.txt'), 'inside\n');
  t.equal(await readText(), 'inside\n', 'the file is served before the race');
  const writer = swapper(
    swapped,
    { dir: dirSwap, content: 'inside\n' },
    dirSwap ? outsideDir : join(outsideDir, 'x.txt'),
  );
  t.teardown(() => writer.kill('SIGKILL'));
  const counts = await hammer(server, uri);
  writer.kill('SIGKILL');
  await new Promise((resolve) => writer.once('exit', resolve));
  t.equal(counts.outside, 0, `no read returned the outside file (${JSON.stringify(counts)})`);
  t.ok(counts.inside + counts.refused >= 30, 'reads ran throughout the race');
  await server.close();
}

t.test('a file swapped with a symlink to a file outside the roots is never served', async (t) => {
  await raceTest(t, false);
});

t.test('a directory swapped with a symlink to a directory outside the roots is never served through', async (t) => {
  await raceTest(t, true);
});
