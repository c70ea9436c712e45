import { mkdirSync, readdirSync, readFileSync, realpathSync, symlinkSync, unlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import t from 'tap';
import { validateReportSchema } from '../../helpers/cli-output-schemas.js';
import { cli, matchesSchema, newProject, parseJson, sharedCliEnv, tempDir } from '../../helpers/cli-projects.js';
import { copyProject } from '../../helpers/fixtures.js';
import { repoRoot } from '../../helpers/paths.js';
import { type ValidateReport, validateJson } from '../../helpers/validate-report.js';

const env = sharedCliEnv();

t.test('a named root that is not a project fails as a missing project does', async (t) => {
  const parent = tempDir();
  const notProject = join(parent, 'notproj');
  mkdirSync(notProject);
  const inside = await cli(['validate'], env, notProject);
  t.equal(inside.code, 1);
  t.match(inside.stderr, /no mcp-bash project found/);
  const flag = await cli(['validate', '--project-root', 'notproj'], env, parent);
  t.equal(flag.code, 1, flag.stdout);
  t.match(flag.stderr, /no mcp-bash project found: .*notproj has no server\.d\/server\.meta\.json/);
  t.equal(flag.stdout, '', 'no report of an empty project');
  const fromEnv = await cli(['validate'], { ...env, MCPBASH_PROJECT_ROOT: notProject }, parent);
  t.equal(fromEnv.code, 1);
  t.match(fromEnv.stderr, /no mcp-bash project found/);
  // 1.x's projects without server.meta.json still validate when named (a warning).
  mkdirSync(join(notProject, 'prompts'));
  const promptsOnly = await cli(['validate', '--project-root', 'notproj'], env, parent);
  t.equal(promptsOnly.code, 0, promptsOnly.stderr);
  t.match(promptsOnly.stdout, /⚠ server\.d\/server\.meta\.json: missing/);
});

t.test('validate --json without a project still prints one report line, exit 1', async (t) => {
  const elsewhere = tempDir();
  for (const args of [[], ['--project-root', elsewhere], ['--project-root', join(elsewhere, 'nope')]]) {
    const run = await cli(['validate', '--json', '--strict', ...args], env, elsewhere);
    t.equal(run.code, 1, `exit 1 (${args.join(' ')})`);
    t.equal(run.stdout.split('\n').length, 2, 'one line');
    const report = parseJson(t, run.stdout, 'validate --json without a project');
    matchesSchema(t, report, validateReportSchema, 'validate --json without a project');
    t.match(report, {
      projectRoot: args[1] ?? elsewhere,
      errors: 1,
      strict: true,
      defaults: { name: '', title: '', version: '' },
      messages: [{ level: 'error', section: 'server' }],
    });
    t.match(
      (report.messages as { message: string }[])[0]?.message,
      args[1]?.endsWith('nope') ? /is not a directory/ : /no mcp-bash project found/,
    );
    t.match(run.stderr, /mcp-bash validate: /, 'the message on stderr too');
  }
  const root = await newProject(t, env);
  t.equal((await cli(['validate', '--json'], env, root)).code, 0, 'a project still validates');
});

t.test('--explain-defaults agrees with the errors about server.meta.json', async (t) => {
  const root = await newProject(t, env);
  const meta = join(root, 'server.d/server.meta.json');
  writeFileSync(meta, '{}');
  const unnamed = await cli(['validate', '--explain-defaults'], env, root);
  t.equal(unnamed.code, 1);
  t.match(unnamed.stdout, /✗ server\.d\/server\.meta\.json \(root\): must have required property 'name'/);
  t.match(
    unnamed.stdout,
    new RegExp(
      String.raw`\n {2}name: {4}not set: server\.meta\.json has an error \(see above\), ` +
        String.raw`so the server falls back to the directory name \(demo\)\n`,
    ),
  );
  writeFileSync(meta, JSON.stringify({ name: 3 }));
  const ignored = await cli(['validate', '--explain-defaults'], env, root);
  t.match(ignored.stdout, /⚠ server\.d\/server\.meta\.json \/name: must be string: the server ignores this value/);
  t.match(ignored.stdout, /✓ server\.d\/server\.meta\.json: server "demo" \(named after its directory\)/);
  t.notMatch(ignored.stdout, /server "3"/, 'the ✓ names the server as it is served');
  t.match(ignored.stdout, /name: {4}the directory name \(demo\): server\.meta\.json gives no usable "name"/);
  unlinkSync(meta);
  const absent = await cli(['validate', '--explain-defaults', '--project-root', root], env, root);
  t.match(absent.stdout, /name: {4}the directory name \(demo\): there is no server\.meta\.json/);
});

t.test("bundle points out the scaffold's placeholder description; the notes say bundle needs an author", async (t) => {
  const root = await newProject(t, env);
  const metaPath = join(root, 'server.d/server.meta.json');
  const meta = JSON.parse(readFileSync(metaPath, 'utf8')) as Record<string, unknown>;
  t.match(meta._comment, /'mcp-bash bundle' needs an author: MCPB_AUTHOR_NAME in mcpb\.conf/);
  const { code, report } = await validateJson(t, env, root, ['--strict']);
  t.equal(code, 0, 'validate --strict passes a fresh project (issue 13)');
  t.equal(report.warnings, 0);
  const noAuthor = await cli(['bundle', '--validate'], { ...env, GIT_CONFIG_GLOBAL: '/dev/null' }, root);
  t.equal(noAuthor.code, 1, 'bundle refuses without an author');
  t.match(noAuthor.stderr, /MCPB_AUTHOR_NAME in mcpb\.conf/, 'and says where to set it, as the notes do');
  writeFileSync(join(root, 'mcpb.conf'), 'MCPB_AUTHOR_NAME="Ada"\n');
  const placeholder = await cli(['bundle', '--validate'], env, root);
  t.equal(placeholder.code, 0, placeholder.stderr);
  t.match(
    placeholder.stderr,
    /warning: server\.d\/server\.meta\.json's description is still the placeholder of 'mcp-bash new'/,
    'the placeholder is pointed out where it gets published',
  );
  writeFileSync(metaPath, JSON.stringify({ ...meta, description: 'Greets people' }));
  const written = await cli(['bundle', '--validate'], env, root);
  t.equal(written.code, 0, written.stderr);
  t.notMatch(written.stderr, /placeholder/, 'a written description is not warned about');
});

t.test('every command that works on a project refuses a --project-root that is none (D232)', async (t) => {
  const notProject = join(tempDir(), 'typo');
  mkdirSync(notProject);
  const commands: Array<[string[], number]> = [
    [['config', '--show'], 1],
    [['run-tool', 'hello', '--allow-self'], 1],
    [['registry', 'refresh'], 2],
    [['registry', 'status'], 2],
    [['bundle', '--validate'], 1],
    [['vendor', '--dry-run'], 1],
    [['scaffold', 'tool', 'greet'], 1],
    [['health'], 2],
  ];
  for (const [args, code] of commands) {
    const run = await cli([...args, '--project-root', notProject], env, tempDir());
    t.equal(run.code, code, `${args.join(' ')}: exit ${code}`);
    t.match(run.stderr, /no mcp-bash project found: .*typo has no server\.d\/server\.meta\.json/, args.join(' '));
  }
  t.same(readdirSync(notProject), [], 'nothing was written into it');
});

t.test('a trailing slash (or // and .) on the project root changes nothing (10-completions)', async (t) => {
  const root = realpathSync(copyProject(join(repoRoot, 'assets', 'examples', '10-completions'), 'slash'));
  const clean = await validateJson(t, env, root, ['--project-root', root]);
  t.equal(clean.code, 0, 'the example passes as it is');
  for (const spelled of [`${root}/`, `${root}//`, `${root}/./`]) {
    const { code, report } = await validateJson(t, env, root, ['--project-root', spelled]);
    t.equal(code, 0, `--project-root ${spelled}`);
    t.same(report, clean.report, `--project-root ${spelled}: the same report`);
    const config = await cli(['config', '--json'], { ...env, MCPBASH_PROJECT_ROOT: spelled }, tempDir());
    t.equal(config.code, 0, config.stderr);
    t.equal(JSON.parse(config.stdout).env.MCPBASH_PROJECT_ROOT, root, `MCPBASH_PROJECT_ROOT=${spelled}: normal form`);
  }
});

t.test('an inputSchema that does not compile gets the warning the server gives', async (t) => {
  const root = await newProject(t, env, 'schemas');
  const schemas = {
    typo: { type: 'object', properties: { a: { type: 'strin' } } },
    dangling: { type: 'object', properties: { a: { $ref: '#/defs/nope' } } },
  };
  for (const [name, inputSchema] of Object.entries(schemas)) {
    t.equal((await cli(['scaffold', 'tool', name], env, root)).code, 0);
    const meta = join(root, 'tools', name, 'tool.meta.json');
    writeFileSync(meta, JSON.stringify({ ...JSON.parse(readFileSync(meta, 'utf8')), inputSchema }));
  }
  const { code, report } = await validateJson(t, env, root);
  t.equal(code, 0, 'a warning, as the server runs the tool');
  for (const name of Object.keys(schemas)) {
    const run = await cli(['run-tool', name, '--allow-self', '--args', '{}'], env, root);
    const said = /mcp\.tools: (.*inputSchema does not compile.*)\n/.exec(run.stderr)?.[1];
    t.ok(said, `run-tool ${name} warns: ${run.stderr}`);
    t.same(
      report.messages.filter((m) => m.file === `tools/${name}/tool.sh` && m.level === 'warning').map((m) => m.message),
      [`tools/${name}/tool.sh: ${said}`],
      `validate: the same words for ${name}`,
    );
  }
  writeFileSync(
    join(root, 'server.d/register.json'),
    JSON.stringify({ version: 1, tools: [{ name: 'typo', path: 'typo/tool.sh', inputSchema: schemas.typo }] }),
  );
  const listed = await validateJson(t, env, root);
  t.match(
    listed.report.messages.find((m) => m.field === '/tools/0/inputSchema')?.message,
    new RegExp(
      String.raw`^server\.d/register\.json /tools/0/inputSchema: ` +
        String.raw`typo: inputSchema does not compile \(.+\); arguments not validated$`,
    ),
    'a register.json entry too',
  );
});

t.test('a template beside invalid metadata is no prompt because the metadata is invalid, not missing', async (t) => {
  const root = await newProject(t, env, 'prompted');
  for (const name of ['p1', 'p2', 'p3']) t.equal((await cli(['scaffold', 'prompt', name], env, root)).code, 0);
  writeFileSync(join(root, 'prompts/p1/p1.meta.json'), '{"name": ');
  writeFileSync(join(root, 'prompts/p2/p2.meta.json'), '["not", "an", "object"]');
  writeFileSync(join(root, 'prompts/p3/p3.meta.json'), '{"arguments": 5}');
  const { report } = await validateJson(t, env, root);
  const said = (file: string) =>
    report.messages.find((m) => m.file === file && /not a prompt/.test(m.message))?.message;
  t.match(said('prompts/p1/p1.txt'), /^prompts\/p1\/p1\.txt: not a prompt: p1\.meta\.json is not valid JSON \(.+\)$/);
  t.equal(said('prompts/p2/p2.txt'), 'prompts/p2/p2.txt: not a prompt: p2.meta.json is not a JSON object');
  t.equal(
    said('prompts/p3/p3.txt'),
    'prompts/p3/p3.txt: not a prompt: p3.meta.json is not valid prompt metadata (see its errors)',
  );
  unlinkSync(join(root, 'prompts/p3/p3.meta.json'));
  t.equal(
    notAPrompt((await validateJson(t, env, root)).report, 'prompts/p3/p3.txt'),
    'prompts/p3/p3.txt: not a prompt: no p3.meta.json describes it',
    'a missing one is still named as missing',
  );
});

/** What validate says of `file` not being a prompt. */
function notAPrompt(report: ValidateReport, file: string): string | undefined {
  return report.messages.find((m) => m.file === file && /not a prompt/.test(m.message))?.message;
}

t.test('files the server leaves out of resources/list are warnings, not resources (D58, D280, D281)', async (t) => {
  const root = await newProject(t, env, 'unlisted');
  const resources = join(root, 'resources');
  mkdirSync(join(resources, 'docs'), { recursive: true });
  writeFileSync(join(resources, 'docs', 'kept.txt'), 'kept');
  writeFileSync(join(root, 'secret.txt'), 'outside');
  symlinkSync('docs/kept.txt', join(resources, 'alias.txt'));
  symlinkSync(join(root, 'secret.txt'), join(resources, 'escape.txt'));
  writeFileSync(join(resources, 'docs\\kept.txt'), 'backslash');
  const { report } = await validateJson(t, env, root);
  const about = (file: string) =>
    report.messages.filter((m) => m.file === file).map((m) => `${m.level}: ${m.message.replace(`${file}: `, '')}`);
  t.match(about('resources/alias.txt'), [/^warning: not listed by the server: a symbolic link to a file/]);
  t.match(about('resources/escape.txt'), [/^warning: not listed by the server: .*outside resources\//]);
  t.match(about('resources/docs\\kept.txt'), [/^warning: not listed by the server: a backslash in its path/]);
  t.match(about('resources/docs/kept.txt'), [/^info: resource "kept"/], 'the file itself is a resource');
  // Metadata without a uri of its own does not make the server list a link (a uri would).
  symlinkSync('docs/kept.txt', join(resources, 'described.txt'));
  writeFileSync(join(resources, 'described.meta.json'), JSON.stringify({ name: 'described', description: 'x' }));
  const again = await validateJson(t, env, root);
  const messages = again.report.messages.filter((m) => /described/.test(m.file ?? ''));
  t.match(
    messages.map((m) => `${m.level}: ${m.message.replace(`${m.file}: `, '')}`),
    [/^warning: not listed by the server: a symbolic link to a file/],
    'a warning, and no resource "described"',
  );
});
