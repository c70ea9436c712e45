/**
 * The SDK and the providers run under the user's Bash, which on macOS is 3.2. There is no
 * Bash 3.2 here, so this scans the shipped scripts for constructs newer than 3.2.
 */
import { spawnSync } from 'node:child_process';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import t from 'tap';
import { repoRoot } from '../helpers/paths.js';
import { shellcheckMissing, shellcheckSkip } from '../helpers/shellcheck.js';

/** [what, pattern] for constructs Bash 3.2 lacks. Patterns run on comment-stripped lines. */
export const BASH4_CONSTRUCTS: ReadonlyArray<readonly [string, RegExp]> = [
  ['associative arrays (declare -A, 4.0)', /\b(declare|local|typeset|readonly)\s+-[a-zA-Z]*A/],
  ['declare -g / -n / -l / -u / -c (4.x)', /\b(declare|local|typeset)\s+-[a-zA-Z]*[gnluc]\b/],
  ['case modification ${x^^} ${x,,} (4.0)', /\$\{[#!]?[A-Za-z_][A-Za-z0-9_]*(\[[^\]]*\])?(\^|,)/],
  ['parameter transformation ${x@Q} (4.4)', /\$\{[A-Za-z_][A-Za-z0-9_]*(\[[^\]]*\])?@[QEPAKaUuLk]\}/],
  ['mapfile / readarray (4.0)', /(^|[\s;|&(])(mapfile|readarray)\b/],
  ['&>> (4.0)', /&>>/],
  ['|& (4.0)', /\|&/],
  ["printf '%(...)T' (4.2)", /%\([^)]*\)T/],
  ['$BASHPID (4.0)', /\$\{?BASHPID\b/],
  ['wait -n (4.3)', /\bwait\s+(-[a-z]*\s+)*-n\b/],
  ['negative substring length ${x:o:-n} (4.2)', /\$\{[^}]*:[^}:]*:\s*-\s*\d/],
  ['negative array index ${a[-1]} (4.3)', /\$\{[A-Za-z_][A-Za-z0-9_]*\[\s*-\d+\s*\]\}/],
  ['[[ -v ]] / test -v (4.2)', /(\[\[?|\btest)\s+-v\s/],
  ['coproc (4.0)', /(^|[\s;])coproc\b/],
  [';;& and ;& case fallthrough (4.0)', /;;&|;&\s*$/],
  ['$EPOCHSECONDS / $EPOCHREALTIME (5.0)', /\bEPOCH(SECONDS|REALTIME)\b/],
  ['{fd}> descriptor allocation (4.1)', /\{[A-Za-z_][A-Za-z0-9_]*\}\s*[<>]/],
  ['local - (4.4)', /\blocal\s+-\s*($|;)/],
  [
    '4.x-only shopt options',
    new RegExp(
      '\\bshopt\\s+-[su]\\s+[^;\\n]*\\b(lastpipe|globstar|inherit_errexit|localvar_inherit|localvar_unset|' +
        'assoc_expand_once|direxpand|globasciiranges|patsub_replacement|checkjobs)\\b',
    ),
  ],
  ['read -N / read -i (4.x)', /\bread\s+([^;|&]*\s)?-[a-zA-Z]*[Ni]\b/],
];

function shellFiles(dir: string): string[] {
  const found: string[] = [];
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const full = join(dir, entry.name);
    if (entry.isDirectory()) found.push(...shellFiles(full));
    else if (
      entry.isFile() &&
      (entry.name.endsWith('.sh') ||
        (!entry.name.includes('.') &&
          statSync(full).size > 2 &&
          /^#!.*\bbash\b/.test(readFileSync(full, 'utf8').split('\n', 1)[0] ?? '')))
    ) {
      found.push(full);
    }
  }
  return found;
}

/** Findings as "file:line: what: text". */
export function scanForBash4(path: string, text: string): string[] {
  const findings: string[] = [];
  text.split('\n').forEach((line, index) => {
    if (/^\s*#/.test(line)) return;
    for (const [what, pattern] of BASH4_CONSTRUCTS) {
      if (pattern.test(line)) findings.push(`${path}:${index + 1}: ${what}: ${line.trim()}`);
    }
  });
  return findings;
}

const files = ['sdk-sh', 'assets'].flatMap((dir) => shellFiles(join(repoRoot, dir)));

t.test('the scanner recognises what it looks for', async (t) => {
  const bad = [
    'declare -A map',
    'local -n ref=x',
    'declare -g G=1',
    'echo "${x^^}"',
    'echo "${x,,}"',
    'echo ${x^}',
    'echo "${x@Q}"',
    'mapfile -t lines <f',
    'cmd &>> log',
    'cmd |& tee',
    "printf '%(%H)T' -1",
    'echo $BASHPID',
    'wait -n',
    'echo "${s:0:-1}"',
    'echo ${a[-1]}',
    '[[ -v x ]]',
    'coproc cat',
    'a) x ;;&',
    'echo $EPOCHSECONDS',
    'exec {fd}>file',
    'local -',
    'shopt -s lastpipe',
    'read -N 3 x',
  ];
  for (const line of bad) t.ok(scanForBash4('x', line).length > 0, `flags: ${line}`);
  const fine = [
    'local -a list=()',
    'declare -F name',
    'echo "${x:-a,b}"',
    'echo "${p:+${p},}"',
    'echo "${#s}" "${s:1:2}"',
    'read -r -t 10 line',
    "printf '%s' x",
    'wait "$pid"',
    '# declare -A in a comment',
    'echo "${arr[@]+"${arr[@]}"}"',
    'case x in a) ;; esac',
  ];
  for (const line of fine) t.same(scanForBash4('x', line), [], `accepts: ${line}`);
});

t.test('shipped Bash has no construct newer than Bash 3.2', async (t) => {
  t.ok(files.length >= 15, `found the SDK and provider scripts (${files.length})`);
  const findings = files.flatMap((file) => scanForBash4(relative(repoRoot, file), readFileSync(file, 'utf8')));
  t.same(findings, [], findings.join('\n'));
});

t.test('shellcheck --shell=bash is clean on the SDK and providers', { skip: shellcheckSkip() }, async (t) => {
  if (!t.notOk(shellcheckMissing, 'shellcheck is installed (MCPBASH_REQUIRE_SHELLCHECK=1)')) return;
  const run = spawnSync('shellcheck', ['--shell=bash', '-x', '--severity=style', ...files], {
    cwd: repoRoot,
    encoding: 'utf8',
  });
  t.equal(run.status, 0, `${run.stdout}${run.stderr}`);
});
