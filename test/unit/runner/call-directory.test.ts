import { existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import t, { type Test } from 'tap';
import { CallDirectoryPool } from '../../../src/runner/call-directory.js';

const stateDir = (t: Test) => {
  const dir = mkdtempSync(join(tmpdir(), 'mcpbash-calls-'));
  t.teardown(() => rmSync(dir, { recursive: true, force: true }));
  return dir;
};

const listCalls = (dir: string) => readdirSync(join(dir, 'calls')).sort();

t.test('close() settles after the refills under way: only the calls handed out are left', async (t) => {
  const dir = stateDir(t);
  const pool = new CallDirectoryPool(dir);
  // Each create() starts refills; close() comes while they are still in flight.
  const handedOut = [pool.create(), pool.create(), pool.create()].map((paths) => basename(paths.dir));
  await pool.close();
  t.same(listCalls(dir), handedOut.sort(), 'no spare made before or after close() is left');
  for (const name of handedOut) t.ok(existsSync(join(dir, 'calls', name, 'files')), `${name} keeps its files dir`);
});

t.test('a pool that runs dry keeps more ready, up to a bound', async (t) => {
  const dir = stateDir(t);
  const pool = new CallDirectoryPool(dir);
  // A burst takes directories faster than the pool refills: more than the first 4 are made at once.
  const burst = Array.from({ length: 40 }, () => pool.create());
  t.equal(new Set(burst.map((paths) => paths.dir)).size, 40, 'every call has its own directory');
  await pool.whenRefilled();
  const spares = listCalls(dir).length - 40;
  t.ok(spares > 4 && spares <= 32, `${spares} spares ready after the burst`);
  await pool.close();
  t.equal(listCalls(dir).length, 40, 'close() removes the spares');
});
