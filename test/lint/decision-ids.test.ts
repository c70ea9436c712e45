/**
 * The ids of the differences from 1.x (docs/MIGRATING-FROM-1.x.md) and of the design notes
 * (docs/ARCHITECTURE.md) are anchors the code and the docs cite: every link to one, and every
 * id from D27 on that a tracked file names, must lead to a row that exists.
 */
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import t from 'tap';
import { repoRoot } from '../helpers/paths.js';

const PAGES = ['docs/MIGRATING-FROM-1.x.md', 'docs/ARCHITECTURE.md'];

function anchorsOf(page: string): Set<string> {
  const text = readFileSync(join(repoRoot, page), 'utf8');
  return new Set([...text.matchAll(/<a id="(d\d+)"><\/a>/g)].map((match) => match[1] as string));
}

const anchors = new Map(PAGES.map((page) => [page.slice('docs/'.length), anchorsOf(page)]));
const tracked = execFileSync('git', ['ls-files', 'src', 'docs', 'test', 'assets', 'sdk-sh', 'README.md'], {
  cwd: repoRoot,
  encoding: 'utf8',
})
  .split('\n')
  .filter((file) => /\.(ts|mjs|md|sh)$/.test(file));

t.test('every link to a row anchor resolves', async (t) => {
  const broken: string[] = [];
  let links = 0;
  for (const file of tracked) {
    const text = readFileSync(join(repoRoot, file), 'utf8');
    for (const match of text.matchAll(/(MIGRATING-FROM-1\.x\.md|ARCHITECTURE\.md)?#(d\d+)\)/g)) {
      const page = match[1] ?? file.split('/').pop() ?? '';
      const known = anchors.get(page);
      if (!known) continue;
      links += 1;
      if (!known.has(match[2] as string)) broken.push(`${file}: ${match[0]}`);
    }
  }
  t.ok(links > 50, `${links} links checked`);
  t.same(broken, []);
});

/** The ids MIGRATING-FROM-1.x.md declares never assigned (its bullet of ranges). */
function unusedIds(): Set<string> {
  const text = readFileSync(join(repoRoot, PAGES[0] as string), 'utf8');
  const bullet = text.split('\n- ').find((item) => item.includes('never assigned')) ?? '';
  const ids = new Set<string>();
  const list = bullet.slice(bullet.indexOf('never assigned'));
  for (const [, from, to] of list.matchAll(/D(\d+)(?:-D(\d+))?/g)) {
    for (let id = Number(from); id <= Number(to ?? from); id += 1) ids.add(`d${id}`);
  }
  return ids;
}

t.test('every id from D27 on that a file names is a row of one of the pages, or declared unused', async (t) => {
  const rows = new Set([...anchors.values()].flatMap((set) => [...set]));
  const unused = unusedIds();
  t.ok(rows.size > 150 && unused.size > 50, `${rows.size} rows, ${unused.size} unused ids`);
  t.same(
    [...unused].filter((id) => rows.has(id)),
    [],
    'no unused id is a row',
  );
  const unknown = new Set<string>();
  for (const file of tracked) {
    const text = readFileSync(join(repoRoot, file), 'utf8');
    for (const match of text.matchAll(/\bD(\d{2,3})\b/g)) {
      const id = `d${match[1]}`;
      if (Number(match[1]) < 27 || rows.has(id)) continue;
      if (!(unused.has(id) && file === PAGES[0])) unknown.add(`${file}: D${match[1]}`);
    }
  }
  t.same([...unknown], [], 'cited ids that are no row');
});
