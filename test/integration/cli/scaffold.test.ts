import { spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import t from 'tap';
import { cli, newProject, parseJson, sharedCliEnv, tempDir } from '../../helpers/cli-projects.js';
import { startInitialized } from '../../helpers/mcp-process.js';
import { binaryPath } from '../../helpers/paths.js';

const env = sharedCliEnv();
const bin = (extra: NodeJS.ProcessEnv = {}) => ({ ...env, MCPBASH_BIN: binaryPath, ...extra });

t.test('scaffold tool: the files, a passing smoke.sh and a clean validate', async (t) => {
  const root = await newProject(t, env);
  const run = await cli(['scaffold', 'tool', 'report-disk'], env, root);
  t.equal(run.code, 0, run.stderr);
  for (const file of ['tool.sh', 'tool.meta.json', 'README.md', 'smoke.sh'])
    t.ok(existsSync(join(root, 'tools/report-disk', file)), file);
  t.equal(statSync(join(root, 'tools/report-disk/smoke.sh')).mode & 0o777, 0o755);
  const smoke = spawnSync(join(root, 'tools/report-disk/smoke.sh'), { env: bin(), encoding: 'utf8' });
  t.equal(smoke.status, 0, `smoke.sh: ${smoke.stdout}${smoke.stderr}`);
  t.match(smoke.stdout, /Smoke test passed for report-disk/);
  const validate = await cli(['validate', '--json'], env, root);
  t.equal(validate.code, 0, validate.stdout);
  t.equal(JSON.parse(validate.stdout).errors, 0);
});

t.test('scaffold refuses existing targets, bad names and a missing project', async (t) => {
  const root = await newProject(t, env);
  t.equal((await cli(['scaffold', 'tool', 'x1'], env, root)).code, 0);
  const again = await cli(['scaffold', 'tool', 'x1'], env, root);
  t.equal(again.code, 1);
  t.match(again.stderr, /tools\/x1\/ already exists/);
  const bad = await cli(['scaffold', 'prompt', 'a.b'], env, root);
  t.equal(bad.code, 1);
  t.match(bad.stderr, /invalid prompt name/);
  const noProject = await cli(['scaffold', 'tool', 'x2'], env, tempDir());
  t.equal(noProject.code, 1);
  t.match(noProject.stderr, /no mcp-bash project found[\s\S]*--project-root/);
  const remote = await cli(['scaffold', 'tool', 'x2', '--project-root', root], env, tempDir());
  t.equal(remote.code, 0, `--project-root: ${remote.stderr}`);
  t.ok(existsSync(join(root, 'tools/x2/tool.sh')), '--project-root scaffolds into that project');
  t.equal((await cli(['scaffold'], env, root)).code, 1, 'no subcommand (usage errors of scaffold exit 1, as in 1.x)');
  const unknown = await cli(['scaffold', 'widget', 'w'], env, root);
  t.equal(unknown.code, 1);
  t.match(unknown.stderr, /unknown subcommand "widget"/);
});

t.test('scaffold prompt and resource land where discovery finds them, and the server serves them', async (t) => {
  const parent = join(tempDir(), 'with space');
  mkdirSync(parent);
  const root = join(parent, 'srv');
  t.equal((await cli(['new', 'srv'], env, parent)).code, 0);
  t.equal((await cli(['scaffold', 'prompt', 'summarize'], env, root)).code, 0);
  const resource = await cli(['scaffold', 'resource', 'notes'], env, root);
  t.equal(resource.code, 0, resource.stderr);
  const promptMeta = JSON.parse(readFileSync(join(root, 'prompts/summarize/summarize.meta.json'), 'utf8'));
  t.equal(promptMeta.path, 'summarize.txt', 'path names the template beside it');
  t.equal(promptMeta.name, 'prompt.summarize', "1.x's prompt name");
  t.match(
    readFileSync(join(root, 'prompts/summarize/summarize.txt'), 'utf8'),
    /\{\{subject\}\}/,
    'placeholders are {{var}} (D9)',
  );
  const resourceMeta = JSON.parse(readFileSync(join(root, 'resources/notes/notes.meta.json'), 'utf8'));
  t.notOk('uri' in resourceMeta, 'no absolute uri written: the server derives it from where the file is (D130)');
  t.notOk(existsSync(join(root, 'resources/notes/README.md')), 'no README: every file in resources/ is a resource');
  t.equal(resourceMeta.name, 'resource.notes', "1.x's resource name");
  const server = await startInitialized({ projectRoot: root, env: { ...env } });
  const prompt = await server.request('prompts/get', {
    name: 'prompt.summarize',
    arguments: { subject: 'disks', details: 'full' },
  });
  t.match(JSON.stringify(prompt.result), /You are helping with disks/);
  const optional = await server.request('prompts/get', { name: 'prompt.summarize', arguments: { subject: 'disks' } });
  t.notMatch(JSON.stringify(optional.result), /\{\{details\}\}/, 'an optional argument not given renders empty (D129)');
  const listed = (await server.request('resources/list')).result as { resources: Array<{ name: string; uri: string }> };
  const uri = listed.resources.find((resource) => resource.name === 'resource.notes')?.uri;
  t.equal(uri, `file://${join(root, 'resources/notes/notes.txt').replace(/ /g, '%20')}`, 'percent-encoded');
  const read = await server.request('resources/read', { uri });
  t.match(JSON.stringify(read.result), /Replace this text/, 'the percent-encoded file:// URI is decoded (D10)');
  await server.close();
});

t.test('a scaffolded resource survives a moved project; validate flags a file:// URI outside it', async (t) => {
  const root = await newProject(t, env, 'mover');
  t.equal((await cli(['scaffold', 'resource', 'notes'], env, root)).code, 0);
  const moved = join(tempDir(), 'moved');
  cpSync(root, moved, { recursive: true });
  const server = await startInitialized({ projectRoot: moved, env: { ...env } });
  const listed = (await server.request('resources/list')).result as { resources: Array<{ name: string; uri: string }> };
  const uri = listed.resources.find((resource) => resource.name === 'resource.notes')?.uri as string;
  t.equal(uri, `file://${join(moved, 'resources/notes/notes.txt')}`, 'the URI follows the project');
  t.match((await server.request('resources/read', { uri })).result, { contents: [{ text: /Replace this text/ }] });
  await server.close();
  const clean = await cli(['validate', '--strict'], env, moved);
  t.equal(clean.code, 0, clean.stdout);
  // A project scaffolded by 1.x (or edited by hand) carries the old absolute path.
  const meta = join(moved, 'resources/notes/notes.meta.json');
  const stale = { ...JSON.parse(readFileSync(meta, 'utf8')), uri: `file://${join(root, 'resources/notes/notes.txt')}` };
  writeFileSync(meta, JSON.stringify(stale));
  const flagged = await cli(['validate', '--json'], env, moved);
  const report = parseJson(t, flagged.stdout, 'validate --json') as {
    messages: Array<{ level: string; message: string }>;
  };
  t.ok(
    report.messages.some(
      (m) => m.level === 'warning' && /is outside the project: reads fail with "outside allowed roots"/.test(m.message),
    ),
    'the stale absolute URI is flagged',
  );
});

t.test('scaffold completion creates register.json, merges into a valid one, refuses a broken one', async (t) => {
  const root = await newProject(t, env);
  const first = await cli(['scaffold', 'completion', 'topics'], env, root);
  t.equal(first.code, 0, first.stderr);
  t.match(first.stdout, /Created server\.d\/register\.json/);
  t.equal(statSync(join(root, 'completions/topics/completion.sh')).mode & 0o777, 0o755);
  const registerPath = join(root, 'server.d/register.json');
  t.same(JSON.parse(readFileSync(registerPath, 'utf8')), {
    version: 1,
    completions: [{ name: 'topics', path: 'completions/topics/completion.sh', timeoutSecs: 5 }],
  });
  // The scaffolded script prints the page asked for: following nextCursor ends (the whole
  // list on every page handed a client the first page again and again).
  const server = await startInitialized({ projectRoot: root, env: { ...env } });
  const pages: string[][] = [];
  let cursor: string | undefined;
  do {
    const reply = await server.request('completion/complete', {
      ref: { type: 'ref/prompt', name: 'topics' },
      argument: { name: 'topic', value: '' },
      limit: 2,
      ...(cursor ? { cursor } : {}),
    });
    const page = (reply.result as { completion: { values: string[]; nextCursor?: string } }).completion;
    pages.push(page.values);
    cursor = page.nextCursor;
  } while (cursor && pages.length < 5);
  await server.close();
  t.same(pages, [['alpha', 'beta'], ['gamma']]);
  writeFileSync(
    registerPath,
    JSON.stringify({
      version: 1,
      tools: null,
      completions: [{ name: 'topics', path: 'completions/topics/completion.sh' }],
    }),
  );
  const second = await cli(['scaffold', 'completion', 'colors'], env, root);
  t.equal(second.code, 0, second.stderr);
  const merged = JSON.parse(readFileSync(registerPath, 'utf8'));
  t.same(
    merged.completions.map((entry: { name: string }) => entry.name),
    ['topics', 'colors'],
  );
  t.equal(merged.tools, null, 'other keys are kept');
  const duplicate = await cli(['scaffold', 'completion', 'other-dir'], env, root);
  t.equal(duplicate.code, 0);
  writeFileSync(registerPath, '{"version": 1, "completions": [],}');
  const broken = await cli(['scaffold', 'completion', 'never'], env, root);
  t.equal(broken.code, 1);
  t.match(broken.stderr, /register\.json is invalid[\s\S]*nothing was scaffolded/);
  t.notOk(existsSync(join(root, 'completions/never')), 'nothing was written');
  t.equal(readFileSync(registerPath, 'utf8'), '{"version": 1, "completions": [],}', 'the broken file is left alone');
});

t.test(
  'scaffold completion appends to register.sh when the project uses it (register.json would switch it off)',
  async (t) => {
    const root = await newProject(t, env);
    writeFileSync(
      join(root, 'server.d/register.sh'),
      '#!/usr/bin/env bash\nmcp_register_tool \'{"name":"x","path":"hello/tool.sh"}\'',
      { mode: 0o644 },
    );
    const run = await cli(['scaffold', 'completion', 'topics'], env, root);
    t.equal(run.code, 0, run.stderr);
    t.match(run.stdout, /MCPBASH_ALLOW_PROJECT_HOOKS=true/, run.stdout);
    t.notOk(existsSync(join(root, 'server.d/register.json')));
    t.match(
      readFileSync(join(root, 'server.d/register.sh'), 'utf8'),
      new RegExp(
        '"name":"x","path":"hello\\/tool\\.sh"\\}\'\\n+# Completion ' +
          'topics[\\s\\S]*mcp_completion_manual_register ' +
          '\'\\{"name":"topics","path":"completions\\/topics\\/completion\\.sh","timeoutSecs":5\\}\'',
      ),
    );
  },
);

t.test('scaffold test writes a harness that validates and runs the tools, and refuses to overwrite', async (t) => {
  const root = await newProject(t, env);
  const run = await cli(['scaffold', 'test'], env, root);
  t.equal(run.code, 0, run.stderr);
  const harness = spawnSync(join(root, 'test/run.sh'), { env: bin(), encoding: 'utf8' });
  t.equal(harness.status, 0, harness.stdout + harness.stderr);
  t.match(harness.stdout, /hello \(example tool\)\.\.\. PASS[\s\S]*Results: 1 passed, 0 failed/);
  const again = await cli(['scaffold', 'test'], env, root);
  t.equal(again.code, 1);
  t.match(again.stderr, /test\/run\.sh, test\/README\.md already exist\n/);
  t.equal((await cli(['scaffold', 'test', 'extra'], env, root)).code, 1, 'scaffold test takes no name');
});

t.test('the scaffolded harness fails a tool that returns an error result or times out', async (t) => {
  const root = await newProject(t, env);
  t.equal((await cli(['scaffold', 'test'], env, root)).code, 0);
  const tool = (name: string, body: string) => {
    mkdirSync(join(root, 'tools', name), { recursive: true });
    writeFileSync(
      join(root, 'tools', name, 'tool.meta.json'),
      JSON.stringify({ name, description: `the ${name} tool`, inputSchema: { type: 'object' } }),
    );
    const script = join(root, 'tools', name, 'tool.sh');
    writeFileSync(script, `#!/usr/bin/env bash\nset -euo pipefail\n${body}\n`, { mode: 0o755 });
  };
  tool('err', 'source "${MCP_SDK}/tool-sdk.sh"\nmcp_result_error \'{"type":"bad","message":"it failed"}\'');
  // A trap ends the sleep with the tool, so the timeout leaves no stray process behind.
  tool('slow', "sleep 30 & trap 'kill $! 2>/dev/null' EXIT\nwait");
  const runSh = join(root, 'test/run.sh');
  const original = readFileSync(runSh, 'utf8');
  const tests = [
    'run_test hello \'{"name":"World"}\' "example tool"',
    'run_test err \'{}\' "error result"',
    'run_test slow \'{}\' "timeout" --timeout 1',
  ].join('\n');
  writeFileSync(runSh, original.replace(/^\s*run_test hello .*$/m, tests));
  for (const flags of [[], ['--verbose']]) {
    const harness = spawnSync(runSh, flags, { env: bin(), encoding: 'utf8' });
    t.equal(harness.status, 1, `${flags.join(' ')}: ${harness.stdout}${harness.stderr}`);
    t.match(harness.stdout, /hello \(example tool\)\.\.\. PASS/);
    t.match(harness.stdout, /err \(error result\)\.\.\. FAIL/);
    t.match(harness.stdout, /slow \(timeout\)\.\.\. FAIL/);
    t.match(harness.stdout, /Results: 1 passed, 2 failed/);
    if (flags.length === 0) t.match(harness.stderr, /it failed[\s\S]*Tool timed out after 1s/, 'the results are shown');
  }
});
t.test(
  'scaffold completion next to a prompt of that name answers for it; validate warns about a stray one',
  async (t) => {
    const root = await newProject(t, env, 'completing');
    t.equal((await cli(['scaffold', 'prompt', 'greet'], env, root)).code, 0);
    t.equal((await cli(['scaffold', 'resource', 'doc'], env, root)).code, 0);
    const greet = await cli(['scaffold', 'completion', 'greet'], env, root);
    t.equal(greet.code, 0, greet.stderr);
    t.match(greet.stdout, /completion "prompt\.greet" -> completions\/greet\/completion\.sh\n/);
    t.match(greet.stdout, /answers for the prompt "prompt\.greet"\./);
    t.match(
      (await cli(['scaffold', 'completion', 'doc'], env, root)).stdout,
      /answers for the resource "resource\.doc"/,
    );
    const stray = await cli(['scaffold', 'completion', 'later'], env, root);
    t.match(stray.stdout, /No prompt or resource is named "later" yet; .*"prompt\.later"/);
    const registered = JSON.parse(readFileSync(join(root, 'server.d/register.json'), 'utf8'));
    t.same(
      registered.completions.map((entry: { name: string }) => entry.name),
      ['prompt.greet', 'resource.doc', 'later'],
    );
    t.match(readFileSync(join(root, 'completions/greet/README.md'), 'utf8'), /"name": "prompt\.greet"/);
    const server = await startInitialized({ projectRoot: root, env: { ...env } });
    t.teardown(() => server.close());
    const answer = await server.request('completion/complete', {
      ref: { type: 'ref/prompt', name: 'prompt.greet' },
      argument: { name: 'subject', value: 'b' },
    });
    t.same(answer.result, { completion: { values: ['beta'], hasMore: false } }, "the scaffolded script's values");
    const validate = await cli(['validate', '--json'], env, root);
    const warnings = (parseJson(t, validate.stdout, 'validate').messages as { level: string; message: string }[])
      .filter((m) => m.level === 'warning' && /completion "/.test(m.message))
      .map((m) => m.message);
    t.same(warnings, [
      'server.d/register.json /completions/2/name: ' +
        'completion "later" names no prompt, resource or resource template, ' +
        'so no client will ask for it (clients complete the prompts and templates they list)',
    ]);
    writeFileSync(
      join(root, 'server.d/register.json'),
      JSON.stringify({ version: 1, completions: [{ name: 'greet', path: 'completions/greet/completion.sh' }] }),
    );
    t.match(
      (await cli(['validate'], env, root)).stdout,
      new RegExp(
        'completion "greet" names no prompt, resource or resource template, ' +
          String.raw`so no client will ask for it \(clients complete the prompts and templates they list\); ` +
          String.raw`the prompt is named "prompt\.greet"`,
      ),
    );
  },
);
