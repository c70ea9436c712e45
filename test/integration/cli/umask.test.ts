import { chmodSync, mkdirSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import t from 'tap';
import { cli, newProject, sharedCliEnv, tempDir } from '../../helpers/cli-projects.js';
import { validateJson } from '../../helpers/validate-report.js';

// Ubuntu's, Debian's and Fedora's default for users: mkdir gives 0775 unless told otherwise.
// The binaries this file starts inherit it.
process.umask(0o002);

const env = sharedCliEnv();
const mode = (path: string) => statSync(path).mode & 0o777;

/** Every directory under `dir` (itself included) with a mode other than 0755, as "path mode". */
function looseDirectories(dir: string, root = dir): string[] {
  const found = mode(dir) === 0o755 ? [] : [`${dir.slice(root.length) || '/'} ${mode(dir).toString(8)}`];
  for (const entry of readdirSync(dir, { withFileTypes: true }))
    if (entry.isDirectory()) found.push(...looseDirectories(join(dir, entry.name), root));
  return found;
}

t.test('under umask 002, new and scaffold create 0755 directories and the project works', async (t) => {
  const root = await newProject(t, env, 'um');
  for (const args of [
    ['completion', 'c'],
    ['tool', 'greet'],
    ['prompt', 'ask'],
    ['resource', 'doc'],
    ['ui', 'view'],
    ['test'],
  ]) {
    const run = await cli(['scaffold', ...args], env, root);
    t.equal(run.code, 0, `scaffold ${args.join(' ')}: ${run.stderr}`);
  }
  t.same(looseDirectories(root), [], 'the root and every directory created are 0755');
  const run = await cli(['run-tool', 'hello', '--allow-self', '--args', '{"name":"Ada"}'], env, root);
  t.equal(run.code, 0, `register.json is trusted: ${run.stderr}`);
  const { code, report } = await validateJson(t, env, root);
  t.equal(code, 0, JSON.stringify(report.messages.filter((m) => m.level === 'error')));
});

t.test('init in a group-writable directory warns with the command, and changes no mode', async (t) => {
  const dir = join(tempDir(), 'shared');
  mkdirSync(join(dir, 'server.d'), { recursive: true });
  chmodSync(dir, 0o775);
  chmodSync(join(dir, 'server.d'), 0o775);
  const run = await cli(['init'], env, dir);
  t.equal(run.code, 0, run.stderr);
  for (const path of [dir, join(dir, 'server.d')]) {
    t.match(run.stderr, `warning: ${path} is writable by group or others (mode 775)`);
    t.match(run.stderr, `until you run: chmod go-w ${path}\n`);
    t.equal(mode(path), 0o775, `${path} is the user's: not changed silently`);
  }
  t.equal(mode(join(dir, 'tools')), 0o755, 'what init creates is 0755');
  const quiet = await cli(['init'], env, (await newProject(t, env, 'tidy')) as string);
  t.notMatch(quiet.stderr, /warning/, 'no warning for a 0755 project');
});

t.test('validate --fix makes register.json, the hooks, server.d/ and the root trusted', async (t) => {
  const root = await newProject(t, env, 'loose');
  t.equal((await cli(['scaffold', 'completion', 'c'], env, root)).code, 0);
  const serverDir = join(root, 'server.d');
  writeFileSync(join(serverDir, 'policy.sh'), 'mcp_tools_policy_check() { return 0; }\n');
  writeFileSync(join(serverDir, 'health-checks.sh'), '#!/usr/bin/env bash\n');
  for (const [path, loose] of [
    [root, 0o775],
    [serverDir, 0o777],
    [join(serverDir, 'register.json'), 0o664],
    [join(serverDir, 'policy.sh'), 0o666],
  ] as const)
    chmodSync(path, loose);
  const before = await validateJson(t, env, root);
  t.equal(before.code, 1);
  const registerJson = before.report.messages.filter((m) => m.file === 'server.d/register.json');
  t.same(
    registerJson.filter((m) => m.level !== 'warning').map((m) => m.level),
    ['error'],
    'a refused register.json gets its error and no pass line',
  );
  t.match(
    registerJson.find((m) => m.level === 'error')?.message,
    /the server refuses it, failing every kind: .* is writable by group or others/,
  );
  const human = await cli(['validate'], env, root);
  t.notMatch(human.stdout, /✓ server\.d\/register\.json/);
  t.match(human.stdout, /--fix/, 'the summary points at --fix');
  const fixed = await validateJson(t, env, root, ['--fix']);
  t.equal(fixed.code, 0, JSON.stringify(fixed.report.messages.filter((m) => m.level === 'error')));
  t.ok(fixed.report.fixesApplied >= 4, `fixes applied: ${fixed.report.fixesApplied}`);
  for (const [path, want] of [
    [root, 0o755],
    [serverDir, 0o755],
    [join(serverDir, 'register.json'), 0o644],
    [join(serverDir, 'policy.sh'), 0o644],
    [join(serverDir, 'health-checks.sh'), 0o644],
  ] as const)
    t.equal(mode(path), want, `${path} lost group/other write only`);
  const run = await cli(['run-tool', 'hello', '--allow-self'], env, root);
  t.equal(run.code, 0, run.stderr);
});
