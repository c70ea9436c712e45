/**
 * The configuration table (src/config/settings.ts) is the one source of truth for the
 * variables mcp-bash reads: docs/ENV.md's tables are rendered from it (UPDATE_ENV_DOC=1
 * rewrites them), every variable the code or the shipped Bash names is in it or in ENV.md's
 * lists of variables the server sets and of system variables, every setting is used, and
 * nothing outside src/config/ reads a setting from the environment.
 */
import { readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import t from 'tap';
import { type AnySetting, SHELL_PARTS } from '../../src/config/setting.js';
import { isShellOnly, SETTINGS } from '../../src/config/settings.js';
import { renderEnvDoc } from '../helpers/env-doc.js';
import { repoRoot } from '../helpers/paths.js';

const ENV_DOC = join(repoRoot, 'docs', 'ENV.md');
const SHIPPED_BASH = ['sdk-sh', 'assets/providers', 'assets/hooks', 'assets/scaffold', 'assets/bootstrap'];

function files(dir: string, keep: (path: string) => boolean): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? files(path, keep) : keep(path) ? [path] : [];
  });
}

const sources = files(join(repoRoot, 'src'), (path) => path.endsWith('.ts')).map((file) => ({
  file: relative(repoRoot, file),
  text: readFileSync(file, 'utf8'),
}));
const bash = SHIPPED_BASH.flatMap((dir) => files(join(repoRoot, dir), (path) => path.endsWith('.sh'))).map((file) => ({
  file: relative(repoRoot, file),
  text: readFileSync(file, 'utf8'),
}));
const rows = Object.entries(SETTINGS as Record<string, AnySetting>);

/** Names in the first column of the hand-written tables of `## heading` in ENV.md. */
function listed(heading: string): Set<string> {
  const doc = readFileSync(ENV_DOC, 'utf8');
  const section = doc.split(`## ${heading}`)[1]?.split('\n## ')[0] ?? '';
  const names = new Set<string>();
  for (const line of section.split('\n')) {
    if (!line.startsWith('| `')) continue;
    for (const [, name] of (line.split('|')[1] ?? '').matchAll(/`([A-Za-z0-9_]+\*?)`/g)) names.add(name as string);
  }
  return names;
}

const serverSets = listed('Variables the server sets for tools, providers and hooks');
const system = listed('Other variables the binary reads');

/**
 * Whether `name` is a setting, a variable the server sets, or a system variable; a prefix
 * (`MCP_TOOL_`) needs a `PREFIX*` row.
 */
function known(name: string): boolean {
  const all = new Set([...rows.map(([row]) => row), ...serverSets, ...system]);
  return all.has(name.endsWith('_') ? `${name}*` : name);
}

t.test("docs/ENV.md's tables are the configuration table's", async (t) => {
  const doc = readFileSync(ENV_DOC, 'utf8');
  const rendered = renderEnvDoc(doc);
  if (process.env.UPDATE_ENV_DOC === '1' && rendered !== doc) writeFileSync(ENV_DOC, rendered);
  t.equal(doc, rendered, 'run UPDATE_ENV_DOC=1 npx tap test/lint/env-doc.test.ts to render them');
  t.ok(rows.length > 100, `${rows.length} settings`);
  t.ok(serverSets.size > 30 && system.size > 5, 'the hand-written lists were read');
});

t.test('every variable the code or the shipped Bash names is a setting or documented apart', async (t) => {
  const unknown = new Map<string, string>();
  const note = (name: string, file: string) => {
    if (!known(name) && !unknown.has(name)) unknown.set(name, file);
  };
  for (const { file, text } of sources) {
    for (const [, name] of text.matchAll(/['"`]((?:MCPBASH|MCP)_[A-Z0-9_]*)['"`]/g)) note(name as string, file);
    for (const [, name] of text.matchAll(/\benv\??\.((?:MCPBASH|MCP)_[A-Z0-9_]+)\b/g)) note(name as string, file);
  }
  for (const { file, text } of bash)
    for (const [, name] of text.matchAll(/\$\{?((?:MCPBASH|MCP)_[A-Z0-9_]+)/g)) note(name as string, file);
  t.same(
    [...unknown].map(([name, file]) => `${name} (${file})`),
    [],
    "add a row to src/config/settings/ (or to ENV.md's list of variables the server sets)",
  );
});

t.test('every setting is read: by the binary through the table, or by the shipped Bash', async (t) => {
  // Read through the parsed values (`values.NAME`), or by another setting's default (`read('NAME')`).
  const code = sources.map(({ file, text }) =>
    file.startsWith('src/config/settings') ? text.replace(/^\s*[A-Z]\w*: /gm, '') : text,
  );
  const shellText = bash.map(({ text }) => text).join('\n');
  const unused = rows.filter(([name, setting]) => {
    if (name.endsWith('*')) return false;
    const byBinary = code.some((text) => text.includes(`.${name}`) || text.includes(`read('${name}')`));
    const byBash = new RegExp(`\\$\\{?${name}\\b`).test(shellText);
    if (isShellOnly(setting)) return !byBash;
    // A row the Bash reads may be parsed by the binary only to warn about a bad value.
    const wantsBash = setting.usedBy.some((part) => SHELL_PARTS.has(part));
    return wantsBash ? !byBash : !byBinary;
  });
  t.same(
    unused.map(([name]) => name),
    [],
    'remove these rows, or fix who they say reads them',
  );
});

t.test('nothing outside src/config/ reads a setting from the environment', async (t) => {
  const reads: string[] = [];
  for (const { file, text } of sources) {
    if (file.startsWith('src/config/')) continue;
    for (const match of text.matchAll(
      /\benv\??\.([A-Z][A-Z0-9_]+)\b(?!\s*=[^=])|\benv\[['"]([A-Z][A-Z0-9_]+)['"]\]/g,
    )) {
      const name = (match[1] ?? match[2]) as string;
      const before = text.slice(Math.max(0, (match.index ?? 0) - 7), match.index);
      if (before.endsWith('delete ') || !(name in SETTINGS)) continue;
      reads.push(`${name} (${file})`);
    }
  }
  t.same(reads, [], 'read these through the parsed configuration (src/config/slices.ts)');
});
