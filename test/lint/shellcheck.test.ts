import { spawnSync } from 'node:child_process';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import t from 'tap';
import { repoRoot } from '../helpers/paths.js';
import { shellcheckMissing, shellcheckSkip } from '../helpers/shellcheck.js';

/** Every shell script we ship or run: *.sh, and extension-less files with a bash/sh shebang. */
function shellScripts(dir: string): string[] {
  const found: string[] = [];
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    if (entry.name === 'node_modules' || entry.name === '.registry') continue;
    const full = join(dir, entry.name);
    if (entry.isDirectory()) {
      found.push(...shellScripts(full));
    } else if (entry.isFile()) {
      if (entry.name.endsWith('.sh') || entry.name.endsWith('.bash')) found.push(full);
      else if (
        !entry.name.includes('.') &&
        statSync(full).size > 2 &&
        /^#!.*\b(bash|sh)\b/.test(readFileSync(full, 'utf8').split('\n', 1)[0] ?? '')
      ) {
        found.push(full);
      }
    }
  }
  return found;
}

t.test('every shipped shell script is shellcheck-clean', { skip: shellcheckSkip() }, async (t) => {
  if (!t.notOk(shellcheckMissing, 'shellcheck is installed (MCPBASH_REQUIRE_SHELLCHECK=1)')) return;
  const scripts = ['sdk-sh', 'assets', '.ci', 'test', 'release'].flatMap((dir) => {
    try {
      return shellScripts(join(repoRoot, dir));
    } catch {
      return [];
    }
  });
  t.ok(scripts.length > 0, 'there are scripts to check');
  // One run over all files: shellcheck is slow to start. -x follows `source` lines it can resolve.
  const run = spawnSync('shellcheck', ['-x', '--severity=style', ...scripts], { cwd: repoRoot, encoding: 'utf8' });
  t.equal(run.status, 0, `shellcheck findings:\n${run.stdout}${run.stderr}`);
  t.comment(`checked ${scripts.length} scripts: ${scripts.map((path) => relative(repoRoot, path)).join(' ')}`);
});
