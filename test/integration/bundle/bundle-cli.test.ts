/**
 * `mcp-bash bundle` on the command line: exit statuses, --validate, --include-gojq,
 * reproducible bytes, where fields come from, and a project made by `mcp-bash new`
 * going to a valid bundle with `bundle` alone once it has an author.
 */
import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { unzipSync } from 'fflate';
import t from 'tap';
import { cli, newProject, sharedCliEnv, tempDir } from '../../helpers/cli-projects.js';
import { fixtureProject } from '../../helpers/fixtures.js';
import { mcpbUnpack, mcpbValidate } from '../../helpers/mcpb.js';
import { scratchDir } from '../../helpers/scratch.js';
import { zipEntries } from '../../helpers/zip-entries.js';

const env = sharedCliEnv({ GIT_CONFIG_NOSYSTEM: '1' });
const sha256 = (path: string) => createHash('sha256').update(readFileSync(path)).digest('hex');

t.test('a project made by `mcp-bash new` bundles with `bundle` alone once it has an author', async (t) => {
  const project = await newProject(t, env, 'fresh');
  const noAuthor = await cli(['bundle'], env, project);
  t.equal(noAuthor.code, 1, 'no author: exit 1');
  t.match(noAuthor.stderr, /no author: MCPB requires author\.name\. Set MCPB_AUTHOR_NAME in mcpb\.conf/);
  t.same(
    readdirSync(project).filter((name) => name.endsWith('.mcpb')),
    [],
    'no bundle written',
  );

  // The author from git, as many developers have it configured.
  const gitConfig = join(tempDir(), 'gitconfig');
  writeFileSync(gitConfig, '[user]\n\tname = Grace Hopper\n\temail = grace@example.com\n');
  const run = await cli(['bundle'], { ...env, GIT_CONFIG_GLOBAL: gitConfig }, project);
  t.equal(run.code, 0, `bundle: ${run.stderr}`);
  t.match(run.stdout, /Bundle written: .*fresh-0\.1\.0\.mcpb/);
  t.match(
    run.stdout,
    /1 tool, 0 resources, 0 resource templates, 0 prompts/,
    'the summary counts what is served, in words',
  );
  const dir = join(tempDir(), 'unpacked');
  const manifest = await mcpbUnpack(join(project, 'fresh-0.1.0.mcpb'), dir);
  t.same(manifest.author, { name: 'Grace Hopper', email: 'grace@example.com' }, 'author from git');
  const verdict = mcpbValidate(dir);
  t.ok(verdict.valid && verdict.issues.length === 0, `mcpb validate: ${verdict.output}`);
});

t.test('exit statuses: 0 done, 1 invalid project, 2 malformed command line', async (t) => {
  const project = fixtureProject('bundle-demo');
  const cases: Array<[string[], number, RegExp]> = [
    [['--validate'], 0, /^Validation passed\. Bundle would be: bundle-demo-1\.2\.3\.mcpb$/m],
    [['--validate', '--version', '1.0'], 1, /version "1\.0" is not a semantic version/],
    [['--validate', '--name', 'a/b'], 1, /name "a\/b" cannot name a file/],
    [['--bogus'], 2, /unknown option --bogus/],
    [['--platform', 'beos'], 2, /unknown platform "beos"/],
    [['--runtime', 'python'], 2, /unknown runtime "python"/],
    [['--binaries', '/tmp'], 2, /--binaries goes with --runtime binary/],
    [['extra'], 2, /unexpected argument "extra"/],
  ];
  for (const [args, code, pattern] of cases) {
    const run = await cli(['bundle', ...args], env, project);
    t.equal(run.code, code, `bundle ${args.join(' ')} exits ${code}`);
    t.match(`${run.stdout}${run.stderr}`, pattern, `bundle ${args.join(' ')} says why`);
  }
  t.same(
    readdirSync(project).filter((name) => name.endsWith('.mcpb')),
    [],
    '--validate and failures write nothing',
  );
  const gojq = await cli(['bundle', '--include-gojq', '--output', 'out'], env, project);
  t.equal(gojq.code, 0, '--include-gojq is accepted');
  t.match(gojq.stderr, /--include-gojq adds nothing in 2\.x/);
  t.ok(existsSync(join(project, 'out', 'bundle-demo-1.2.3.mcpb')), '--output DIR is created');
});

t.test('mcpb.conf is read, never run: a line that needs a shell fails naming it', async (t) => {
  const project = fixtureProject('bundle-demo');
  const marker = join(tempDir(), 'ran');
  writeFileSync(join(project, 'mcpb.conf'), `MCPB_AUTHOR_NAME="A"\n\nMCPB_VERSION="$(touch ${marker})"\n`);
  const run = await cli(['bundle', '--validate'], env, project);
  t.equal(run.code, 1);
  t.match(run.stderr, /mcpb\.conf line 3 needs a shell to evaluate/);
  t.notOk(existsSync(marker), 'the command substitution never ran');
});

t.test('flags win over mcpb.conf; the archive is reproducible', async (t) => {
  const project = fixtureProject('bundle-demo');
  writeFileSync(
    join(project, 'mcpb.conf'),
    `${readFileSync(join(project, 'mcpb.conf'), 'utf8')}MCPB_NAME="from-conf"\n`,
  );
  const first = scratchDir('mcpbash-repro-a-');
  const second = scratchDir('mcpbash-repro-b-');
  const third = scratchDir('mcpbash-repro-c-');
  const flagged = await cli(
    ['bundle', '--output', first, '--name', 'from-flag', '--version', '9.9.9'],
    { ...env, TZ: 'UTC' },
    project,
  );
  t.equal(flagged.code, 0, flagged.stderr);
  const file = 'from-flag-9.9.9.mcpb';
  t.ok(existsSync(join(first, file)), '--name and --version win over mcpb.conf and server.meta.json');
  const again = await cli(
    ['bundle', '--output', second, '--name', 'from-flag', '--version', '9.9.9'],
    { ...env, TZ: 'Asia/Kolkata' },
    project,
  );
  t.equal(again.code, 0);
  t.equal(sha256(join(second, file)), sha256(join(first, file)), 'two runs (in two time zones) give the same bytes');

  const entries = zipEntries(readFileSync(join(first, file)));
  const names = entries.map((entry) => entry.name);
  t.same(names, [...names].sort(), 'entries are sorted');
  t.ok(
    entries.every((entry) => entry.host === 3 && entry.unixTime === 315532800),
    'unix entries, all at 1980-01-01',
  );
  t.same(entries.find((entry) => entry.name === 'server/tools/greet/tool.sh')?.mode, 0o755, 'exec bit kept');
  t.same(entries.find((entry) => entry.name === 'manifest.json')?.mode, 0o644);
  t.same(entries[0]?.dos, { year: 1980, month: 1, day: 1, hour: 0, minute: 0, second: 0 });

  const epoch = await cli(
    ['bundle', '--output', third, '--name', 'from-flag', '--version', '9.9.9'],
    { ...env, SOURCE_DATE_EPOCH: '1700000000' },
    project,
  );
  t.equal(epoch.code, 0);
  const stamped = zipEntries(readFileSync(join(third, file)));
  t.ok(
    stamped.every((entry) => entry.unixTime === 1700000000),
    'SOURCE_DATE_EPOCH sets every time',
  );
  t.same(
    stamped[0]?.dos,
    { year: 2023, month: 11, day: 14, hour: 22, minute: 13, second: 20 },
    'DOS fields are its UTC time',
  );
  const files = unzipSync(readFileSync(join(third, file)), {
    filter: (entry) => entry.name === 'server/.registry/tools.json',
  });
  const registry = JSON.parse(Buffer.from(files['server/.registry/tools.json'] as Uint8Array).toString('utf8'));
  t.equal(registry.generatedAt, '2023-11-14T22:13:20Z', 'the static registry carries the same time');
  t.notOk('fingerprint' in registry, 'and no fingerprint of this machine');
});

t.test('secrets, logs and earlier bundles stay out; .mcpbignore is honoured; --verbose says why', async (t) => {
  const project = fixtureProject('bundle-demo');
  const tool = join(project, 'tools', 'greet');
  writeFileSync(join(tool, '.env'), 'SECRET=x\n');
  writeFileSync(join(tool, 'id_rsa'), 'key\n');
  writeFileSync(join(tool, 'notes.txt'), 'private\n');
  writeFileSync(join(project, '.mcpbignore'), 'notes.txt\n');
  const sizes: number[] = [];
  for (let round = 0; round < 2; round++) {
    // Bundling from inside the tool's folder writes the bundle there: the next one must not hold it.
    const run = await cli(['bundle', '--verbose'], env, tool);
    t.equal(run.code, 0, run.stderr);
    sizes.push(readFileSync(join(tool, 'bundle-demo-1.2.3.mcpb')).length);
    const names = zipEntries(readFileSync(join(tool, 'bundle-demo-1.2.3.mcpb'))).map((entry) => entry.name);
    t.notOk(
      names.some((name) => /\.env|id_rsa|notes\.txt|\.mcpb$/.test(name)),
      names.join(' '),
    );
    t.match(run.stderr, 'tools/greet/.env: matches .env* (the default exclusions)');
    t.match(run.stderr, 'tools/greet/notes.txt: matches notes.txt (.mcpbignore line 1)');
    t.match(run.stderr, /note: left out \d+ project files/);
  }
  t.equal(sizes[1], sizes[0], 'the second bundle is no bigger than the first');
});

t.test('--output: a file that is not a bundle is not replaced; a file as the dir is said plainly', async (t) => {
  const project = fixtureProject('bundle-demo');
  const out = join(project, 'out');
  const target = join(out, 'bundle-demo-1.2.3.mcpb');
  await cli(['bundle', '--output', 'out'], env, project);
  writeFileSync(target, 'my notes, not a bundle\n');
  const refused = await cli(['bundle', '--output', 'out'], env, project);
  t.equal(refused.code, 1);
  t.match(refused.stderr, `${target} exists and is not a bundle (not a zip file); refusing to replace it`);
  t.equal(readFileSync(target, 'utf8'), 'my notes, not a bundle\n', 'the file is untouched');

  writeFileSync(join(project, 'plain'), 'x');
  const file = await cli(['bundle', '--output', 'plain'], env, project);
  t.equal(file.code, 1);
  t.match(file.stderr, `--output ${join(project, 'plain')} is a file, not a directory`);
  t.notMatch(file.stderr, /EEXIST/);

  const replaced = await cli(['bundle', '--output', 'again'], env, project);
  t.equal(replaced.code, 0);
  const twice = await cli(['bundle', '--output', 'again'], env, project);
  t.equal(twice.code, 0, 'an earlier bundle is replaced');
});
