/**
 * No line of our TypeScript or .mjs code is over 120 characters (issue 14). Biome formats to
 * that width but cannot wrap long string and template literals, so this catches what it leaves.
 * src/schemas/generated/ is generated code and exempt.
 */
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import t from 'tap';
import { repoRoot } from '../helpers/paths.js';

export const MAX_LINE_LENGTH = 120;
const EXEMPT = 'src/schemas/generated/';

/** Findings as "file:line: N characters" for each line over the limit (counted in code points). */
export function longLines(path: string, text: string): string[] {
  const findings: string[] = [];
  text.split('\n').forEach((line, index) => {
    const length = [...line.replace(/\r$/, '')].length;
    if (length > MAX_LINE_LENGTH) findings.push(`${path}:${index + 1}: ${length} characters`);
  });
  return findings;
}

/** The tracked *.ts and *.mjs files, relative to the repository root. */
function trackedSources(): string[] {
  const listed = spawnSync('git', ['ls-files', '-z', '--', '*.ts', '*.mjs'], { cwd: repoRoot, encoding: 'utf8' });
  if (listed.status !== 0) throw new Error(`git ls-files failed: ${listed.stderr || listed.error?.message}`);
  return listed.stdout.split('\0').filter((file) => file !== '' && !file.startsWith(EXEMPT));
}

t.test('the check counts characters, not bytes, and names file and line', async (t) => {
  t.same(longLines('a.ts', 'x'.repeat(MAX_LINE_LENGTH)), []);
  t.same(longLines('a.ts', `${'✓'.repeat(MAX_LINE_LENGTH)}\r\n`), []);
  t.same(longLines('a.ts', `ok\n${'x'.repeat(MAX_LINE_LENGTH + 1)}\nok`), ['a.ts:2: 121 characters']);
});

t.test(`no tracked *.ts or *.mjs line is over ${MAX_LINE_LENGTH} characters`, async (t) => {
  const files = trackedSources();
  t.ok(files.includes('src/main.ts') && files.includes('build.mjs'), `lists the sources (${files.length} files)`);
  const findings = files.flatMap((file) => longLines(file, readFileSync(join(repoRoot, file), 'utf8')));
  t.same(findings, [], findings.join('\n'));
});
