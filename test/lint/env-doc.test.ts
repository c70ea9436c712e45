/**
 * docs/ENV.md lists every environment variable the binary reads, and nothing else: the
 * names the code mentions (TypeScript in src/, the Bash it ships) are compared with the
 * names in the first column of ENV.md's tables. `codeVariables` is the one place that says
 * what the code reads; point it at a declarative table of settings when there is one.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import t from 'tap';
import { repoRoot } from '../helpers/paths.js';

const VARIABLE = /^(MCPBASH|MCP)_[A-Z0-9_]*$/;

function files(dir: string, keep: (path: string) => boolean): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? files(path, keep) : keep(path) ? [path] : [];
  });
}

/**
 * Every variable the code names: MCPBASH_ and MCP_ string literals and `env.NAME` reads in
 * src/ (a literal ending in `_` is a prefix), and MCPBASH_ and MCP_ expansions in the Bash the
 * binary ships (SDK, providers, hook drivers, scaffolds).
 */
function codeVariables(): Map<string, string> {
  const found = new Map<string, string>();
  const note = (name: string, file: string) => {
    if (!found.has(name)) found.set(name, relative(repoRoot, file));
  };
  for (const file of files(join(repoRoot, 'src'), (path) => path.endsWith('.ts'))) {
    const text = readFileSync(file, 'utf8');
    for (const [, name] of text.matchAll(/['"`]((?:MCPBASH|MCP)_[A-Z0-9_]*)['"`]/g)) note(name as string, file);
    for (const [, name] of text.matchAll(/\b(?:env|process\.env)\??\.([A-Z][A-Z0-9_]*)\b/g)) note(name as string, file);
    for (const [, name] of text.matchAll(/\benv\[['"]([A-Z][A-Z0-9_]*)['"]\]/g)) note(name as string, file);
  }
  const shipped = ['sdk-sh', 'assets/providers', 'assets/hooks', 'assets/scaffold', 'assets/bootstrap'];
  for (const dir of shipped)
    for (const file of files(join(repoRoot, dir), (path) => /\.sh$/.test(path))) {
      const text = readFileSync(file, 'utf8');
      for (const [, name] of text.matchAll(/\$\{?((?:MCPBASH|MCP)_[A-Z0-9_]+)/g)) note(name as string, file);
    }
  return found;
}

/**
 * Names in the first column of ENV.md's tables, before the list of 1.x variables 2.x
 * ignores (`settable`: only the tables of variables you set, before the ones the server sets).
 */
function documentedVariables(settable = false): Set<string> {
  const doc = readFileSync(join(repoRoot, 'docs', 'ENV.md'), 'utf8');
  const end = settable ? '## Variables the server sets' : '## 1.x variables 2.x does not read';
  const documented = doc.split(end)[0] ?? '';
  const names = new Set<string>();
  for (const line of documented.split('\n')) {
    if (!line.startsWith('| `')) continue;
    const firstCell = line.split('|')[1] ?? '';
    for (const [, name] of firstCell.matchAll(/`([A-Za-z0-9_]+\*?)`/g)) names.add(name as string);
  }
  return names;
}

const code = codeVariables();
const documented = documentedVariables();

t.test('every variable the code reads is in docs/ENV.md', async (t) => {
  t.ok(code.size > 100, `found ${code.size} names in the code`);
  const missing = [...code]
    .filter(([name]) => (name.endsWith('_') ? !documented.has(`${name}*`) : !documented.has(name)))
    .map(([name, file]) => `${name} (${file})`);
  t.same(missing, [], 'add a row to docs/ENV.md for each');
});

t.test('every variable docs/ENV.md tells you to set is read somewhere', async (t) => {
  const settable = documentedVariables(true);
  const everything = [
    ...files(join(repoRoot, 'src'), (path) => path.endsWith('.ts')),
    ...['sdk-sh', 'assets'].flatMap((dir) => files(join(repoRoot, dir), (path) => /\.(sh|json|md|txt)$/.test(path))),
  ]
    .map((file) => readFileSync(file, 'utf8'))
    .join('\n');
  const stale = [...settable].filter((name) => {
    const word = name.endsWith('*') ? name.slice(0, -1) : name;
    return !new RegExp(`(^|[^A-Za-z0-9_])${word}`).test(everything);
  });
  t.same(stale, [], 'remove these rows (or move them to the list of 1.x variables 2.x does not read)');
  t.ok(
    [...settable].filter((name) => VARIABLE.test(name)).length > 90,
    'the tables were read (names in backticks in the first column)',
  );
});
