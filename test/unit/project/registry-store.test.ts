import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Clock } from '@tapjs/clock';
import t from 'tap';
import {
  type RegistryOptions,
  type RegistrySource,
  RegistryStore,
} from '../../../src/project/registry/registry-store.js';
import { scratchDir } from '../../helpers/scratch.js';

interface Item {
  readonly name: string;
}

/** A source over one watched directory that counts its scans (each finds one item per file). */
function countingSource(dir: string): RegistrySource<Item> & { readonly scans: number } {
  let scans = 0;
  return {
    get scans() {
      return scans;
    },
    kind: 'tools',
    cacheFile: join(dir, '.registry', 'items.json'),
    ttlMs: 0,
    watchedPaths: [join(dir, 'watched')],
    scan: () => {
      scans += 1;
      return { items: [{ name: `scan-${scans}` }], warnings: [] };
    },
    manual: async () => ({ mode: 'auto', key: '' }),
  };
}

const quiet = { warning: () => undefined, info: () => undefined, debug: () => undefined };
const options = (extra: Partial<RegistryOptions> = {}): RegistryOptions => ({
  log: quiet,
  maxBytes: 1_000_000,
  staticMode: false,
  writeCache: true,
  ...extra,
});

function project() {
  const dir = scratchDir('mcpbash-store-');
  mkdirSync(join(dir, 'watched'));
  writeFileSync(join(dir, 'watched', 'a.txt'), 'a');
  return dir;
}

t.test('a cache is reused for the same files only under the same discovery rules', async (t) => {
  const dir = project();
  const first = countingSource(dir);
  await new RegistryStore<Item>(first, options({ rules: 'v1 discovery 1' })).snapshot();
  t.equal(first.scans, 1);
  t.ok(existsSync(first.cacheFile), 'the cache is written');
  const same = countingSource(dir);
  const reused = await new RegistryStore<Item>(same, options({ rules: 'v1 discovery 1' })).snapshot();
  t.same([same.scans, reused.items], [0, [{ name: 'scan-1' }]], 'same files, same rules: the cache answers');
  const other = countingSource(dir);
  const rescanned = await new RegistryStore<Item>(other, options({ rules: 'v2 discovery 2' })).snapshot();
  t.same(
    [other.scans, rescanned.items],
    [1, [{ name: 'scan-1' }]],
    'other rules (another mcp-bash): the files are scanned again, not served from the old cache',
  );
});

t.test('a delayed cache write comes after its delay, or at flushCache(), with the newest registry', async (t) => {
  const clock = new Clock();
  t.teardown(clock.enter());
  const dir = project();
  const source = countingSource(dir);
  const store = new RegistryStore<Item>(source, options({ cacheWriteDelayMs: 1000 }));
  await store.snapshot();
  t.notOk(existsSync(source.cacheFile), 'not written with the answer');
  // A change and a rescan within the delay: the one write that comes is the newer registry.
  writeFileSync(join(dir, 'watched', 'b.txt'), 'b');
  t.same((await store.snapshot()).items, [{ name: 'scan-2' }]);
  clock.advance(999);
  t.notOk(existsSync(source.cacheFile), 'the delay runs from the first scan, not reset by the second');
  clock.advance(1);
  t.ok(existsSync(source.cacheFile), 'written after the delay');
  t.same(
    (JSON.parse(readFileSync(source.cacheFile, 'utf8')) as { items: Item[] }).items,
    [{ name: 'scan-2' }],
    'with the newest registry',
  );
  const other = project();
  const flushed = countingSource(other);
  const early = new RegistryStore<Item>(flushed, options({ cacheWriteDelayMs: 1000 }));
  await early.snapshot();
  early.flushCache();
  t.ok(existsSync(flushed.cacheFile), 'flushCache() writes it at once');
});
