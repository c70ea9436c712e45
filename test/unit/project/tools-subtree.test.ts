import t from 'tap';
import { projectLayout } from '../../../src/project/project-layout.js';
import type { ToolDefinition } from '../../../src/project/tools/tool-definition.js';
import { isInSubtree, mergeSubtreeScan, resolveToolsSubtree } from '../../../src/project/tools/tools-subtree.js';

const tool = (name: string, path: string, description = ''): ToolDefinition => ({
  name,
  path,
  description,
  inputSchema: { type: 'object' },
  timeoutSecs: null,
});

t.test('a refresh path is a literal path inside the tools directory', async (t) => {
  const layout = projectLayout('/p', {});
  t.equal(resolveToolsSubtree(layout, 'tools/a[1]'), 'a[1]', 'from the project root');
  t.equal(resolveToolsSubtree(layout, 'a/b'), 'a/b', 'from the tools directory');
  t.equal(resolveToolsSubtree(layout, '/p/tools/x*'), 'x*', 'absolute; no glob');
  t.equal(resolveToolsSubtree(layout, 'tools'), '', 'the whole directory');
  t.equal(resolveToolsSubtree(layout, '..dots'), '..dots', 'a name starting with dots is inside');
  t.match(resolveToolsSubtree(layout, '../x'), { error: /not inside the tools directory/ });
  t.match(resolveToolsSubtree(layout, '/elsewhere'), { error: /not inside/ });
});

t.test('subtree membership is plain string comparison', async (t) => {
  t.ok(isInSubtree('a/tool.sh', 'a'));
  t.notOk(isInSubtree('ab/tool.sh', 'a'));
  t.notOk(isInSubtree('a1/tool.sh', 'a[1]'));
  t.ok(isInSubtree('anything', ''));
});

t.test('a subtree scan replaces the previous entries inside it and keeps the rest', async (t) => {
  const previous = [
    tool('keep', 'keep/tool.sh'),
    tool('old', 'sub/old.sh'),
    { bogus: true } as unknown as ToolDefinition,
  ];
  const warnings: string[] = [];
  const merged = mergeSubtreeScan(previous, [tool('new', 'sub/new.sh')], 'sub', warnings);
  t.same(
    merged.map((entry) => entry.name),
    ['keep', 'new'],
    'sorted; malformed cache entries dropped',
  );
  t.same(
    mergeSubtreeScan([], [tool('only', 'sub/x.sh')], 'sub', []).map((entry) => entry.name),
    ['only'],
  );
});
