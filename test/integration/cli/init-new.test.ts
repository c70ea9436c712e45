import { existsSync, mkdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import t from 'tap';
import { cli, newProject, sharedCliEnv, tempDir } from '../../helpers/cli-projects.js';

const env = sharedCliEnv();

t.test('new creates the skeleton, a README and a working hello tool', async (t) => {
  const root = await newProject(t, env, 'my-server');
  for (const file of [
    'server.d/server.meta.json',
    'tools/hello/tool.sh',
    'tools/hello/tool.meta.json',
    '.gitignore',
    'README.md',
  ]) {
    t.ok(existsSync(join(root, file)), file);
  }
  const meta = JSON.parse(readFileSync(join(root, 'server.d/server.meta.json'), 'utf8'));
  t.match(meta, { name: 'my-server', title: 'My Server', version: '0.1.0' });
  t.equal(
    statSync(join(root, 'tools/hello/tool.sh')).mode & 0o777,
    0o755,
    'the tool is executable, not group-writable',
  );
  t.equal(readFileSync(join(root, '.gitignore'), 'utf8'), '.registry/\n*.log\n.DS_Store\nThumbs.db\n');
  t.match(readFileSync(join(root, 'README.md'), 'utf8'), /^# My Server/);
  const run = await cli(['run-tool', 'hello', '--allow-self', '--args', '{"name":"Ada"}'], env, root);
  t.equal(run.code, 0, run.stderr);
  t.same(JSON.parse(run.stdout).structuredContent, { success: true, result: { message: 'Hello, Ada!' } });
});

t.test('new refuses an existing target, bad names, and a missing or extra name', async (t) => {
  const parent = tempDir();
  mkdirSync(join(parent, 'taken'));
  const taken = await cli(['new', 'taken'], env, parent);
  t.equal(taken.code, 1);
  t.match(taken.stderr, /taken already exists/);
  for (const bad of ['a.b', '../x', 'with space', 'x'.repeat(65)]) {
    const run = await cli(['new', bad], env, parent);
    t.equal(run.code, 1, `"${bad}" is refused`);
    t.match(run.stderr, /invalid project name/);
    t.match(run.stderr, /\nExample: my-server\n/, 'a project-like example, not a tool name');
  }
  writeFileSync(join(parent, 'plainfile'), '');
  const file = await cli(['new', 'plainfile'], env, parent);
  t.equal(file.code, 1);
  t.match(file.stderr, /plainfile already exists and is a file, not a directory\nChoose another name\.\n/);
  t.notMatch(file.stderr, /mcp-bash init/, 'init cannot make a file a project');
  const missing = await cli(['new'], env, parent);
  t.equal(missing.code, 1, 'usage errors of new exit 1, as in 1.x');
  t.match(missing.stderr, /a project name is required\nUsage: mcp-bash new/);
  t.equal((await cli(['new', 'a', 'b'], env, parent)).code, 1);
});

t.test('new --no-hello leaves the example tool out', async (t) => {
  const root = await newProject(t, env, 'bare', ['--no-hello']);
  t.ok(existsSync(join(root, 'tools')));
  t.notOk(existsSync(join(root, 'tools/hello')));
});

t.test('init works in the current directory, names the server after it, and never overwrites', async (t) => {
  const dir = join(tempDir(), 'My Project');
  mkdirSync(join(dir, 'server.d'), { recursive: true });
  writeFileSync(join(dir, '.gitignore'), 'node_modules/\n*.log');
  const run = await cli(['init'], env, dir);
  t.equal(run.code, 0, run.stderr);
  t.match(
    run.stdout,
    /Created server\.d\/server\.meta\.json\nCreated tools\/\nUpdated \.gitignore\nCreated tools\/hello\/tool\.sh/,
  );
  t.equal(
    JSON.parse(readFileSync(join(dir, 'server.d/server.meta.json'), 'utf8')).name,
    'My-Project',
    'a directory name is made a valid server name',
  );
  t.equal(
    readFileSync(join(dir, '.gitignore'), 'utf8'),
    'node_modules/\n*.log\n.registry/\n.DS_Store\nThumbs.db\n',
    'only the missing lines are appended',
  );
  writeFileSync(join(dir, 'tools/hello/tool.sh'), '#!/bin/bash\necho mine\n');
  const again = await cli(['init', '--name', 'other'], env, dir);
  t.equal(again.code, 0);
  t.match(again.stdout, /Skipped server\.d\/server\.meta\.json \(exists\)/);
  t.match(again.stdout, /Skipped \.gitignore/);
  t.equal(
    readFileSync(join(dir, 'tools/hello/tool.sh'), 'utf8'),
    '#!/bin/bash\necho mine\n',
    "the user's file is kept",
  );
  // A user's own tools/hello without metadata: init adds nothing beside it.
  const mine = join(tempDir(), 'mine');
  mkdirSync(join(mine, 'tools', 'hello'), { recursive: true });
  writeFileSync(join(mine, 'tools/hello/tool.sh'), '#!/bin/bash\necho mine\n');
  const beside = await cli(['init'], env, mine);
  t.equal(beside.code, 0, beside.stderr);
  t.match(beside.stdout, /Skipped tools\/hello/);
  t.notOk(existsSync(join(mine, 'tools/hello/tool.meta.json')), "no hello metadata is added beside the user's tool");
});

t.test('init --name validates the name; --no-hello; unknown flags are usage errors', async (t) => {
  const dir = tempDir();
  const bad = await cli(['init', '--name', 'no/slash'], env, dir);
  t.equal(bad.code, 1);
  t.match(bad.stderr, /invalid server name "no\/slash"/);
  const ok = await cli(['init', '--name', '0123', '--no-hello'], env, dir);
  t.equal(ok.code, 0);
  t.equal(
    JSON.parse(readFileSync(join(dir, 'server.d/server.meta.json'), 'utf8')).name,
    '0123',
    'a number-like name stays a string',
  );
  t.notOk(existsSync(join(dir, 'tools/hello')));
  const unknown = await cli(['init', '--bogus'], env, dir);
  t.equal(unknown.code, 1, 'usage errors of init exit 1, as in 1.x');
  t.match(unknown.stderr, /unknown option --bogus\nUsage: mcp-bash init/);
});

t.test('init in an existing project names the project as it declares itself', async (t) => {
  const dir = join(tempDir(), 'existing');
  mkdirSync(join(dir, 'server.d'), { recursive: true });
  writeFileSync(join(dir, 'server.d/server.meta.json'), '{"name":"mine"}');
  const run = await cli(['init'], env, dir);
  t.equal(run.code, 0, run.stderr);
  t.match(run.stdout, /^Initialized mcp-bash project "mine" in /);
  const renamed = await cli(['init', '--name', 'other'], env, dir);
  t.match(renamed.stdout, /^Initialized mcp-bash project "mine" in /);
  t.match(renamed.stdout, /--name other not applied: server\.d\/server\.meta\.json names the server "mine"\n/);
  t.equal(JSON.parse(readFileSync(join(dir, 'server.d/server.meta.json'), 'utf8')).name, 'mine', 'kept');
});

t.test('the next steps suggest running the example tool only when it was just created', async (t) => {
  const runLine = /run-tool hello/;
  const fresh = tempDir();
  const created = await cli(['init'], env, fresh);
  t.match(created.stdout, runLine, 'init created tools/hello');
  t.notMatch((await cli(['init'], env, fresh)).stdout, runLine, 'a second init created nothing');
  const own = tempDir();
  mkdirSync(join(own, 'tools', 'hello'), { recursive: true });
  writeFileSync(join(own, 'tools/hello/tool.sh'), '#!/bin/bash\necho mine\n');
  const kept = await cli(['init'], env, own);
  t.match(kept.stdout, /Skipped tools\/hello/);
  t.notMatch(kept.stdout, runLine, "the user's own tools/hello was kept");
  t.notMatch((await cli(['init', '--no-hello'], env, tempDir())).stdout, runLine, '--no-hello');
  const parent = tempDir();
  t.match((await cli(['new', 'with'], env, parent)).stdout, runLine, 'new');
  t.notMatch((await cli(['new', 'without', '--no-hello'], env, parent)).stdout, runLine, 'new --no-hello');
  t.match(readFileSync(join(parent, 'with/README.md'), 'utf8'), runLine, "new's README: the example tool");
  const readme = readFileSync(join(parent, 'without/README.md'), 'utf8');
  t.notMatch(readme, runLine, "new --no-hello's README names no tool that is not there");
  t.match(readme, /\nmcp-bash run-tool my-tool --allow-self +# run the tool scaffolded above/);
  t.notMatch(readme, /__RUN_TOOL__/);
});

t.test('the next steps suggest a tool name that is free', async (t) => {
  const dir = tempDir();
  t.match((await cli(['init'], env, dir)).stdout, /scaffold tool my-tool +#/);
  t.equal((await cli(['scaffold', 'tool', 'my-tool'], env, dir)).code, 0);
  t.match((await cli(['init'], env, dir)).stdout, /scaffold tool my-tool-2 +#/, 'my-tool exists');
});

t.test('init says which server name it derived from the directory name, and --help says so', async (t) => {
  for (const [directory, derived] of [
    ['proj x', 'proj-x'],
    ['日本', 'mcp-server'],
  ] as const) {
    const dir = join(tempDir(), directory);
    mkdirSync(dir);
    const run = await cli(['init'], env, dir);
    t.equal(run.code, 0, run.stderr);
    t.match(run.stdout, `Server name "${derived}": derived from the directory name "${directory}"`);
    t.equal(JSON.parse(readFileSync(join(dir, 'server.d/server.meta.json'), 'utf8')).name, derived);
    t.notMatch((await cli(['init'], env, dir)).stdout, /Server name/, 'not again: the name is in server.meta.json');
  }
  const same = tempDir();
  t.notMatch((await cli(['init'], env, same)).stdout, /Server name/, 'a directory name that is valid as it is');
  const help = await cli(['init', '--help'], env, same);
  t.match(help.stdout, /--name NAME +the server name; .*\(default: derived from the\n +directory name/);
});

t.test('init --name beside an invalid server.meta.json says it is invalid', async (t) => {
  const dir = join(tempDir(), 'ne');
  mkdirSync(join(dir, 'server.d'), { recursive: true });
  writeFileSync(join(dir, 'server.d/server.meta.json'), '{"name": ');
  const run = await cli(['init', '--name', 'foo'], env, dir);
  t.equal(run.code, 0, run.stderr);
  t.match(run.stdout, /--name foo not applied: server\.d\/server\.meta\.json exists and is not valid JSON \(/);
  t.match(run.stdout, /named after the directory \("ne"\); fix the file, or move it away and run init again\n/);
  t.notMatch(run.stdout, /names the server/, 'the file names nothing');
  writeFileSync(join(dir, 'server.d/server.meta.json'), '{"title": "No name"}');
  t.match((await cli(['init', '--name', 'foo'], env, dir)).stdout, /exists and has no "name", so the server/);
});

t.test('the comments of the next steps line up in one column', async (t) => {
  const parent = tempDir();
  for (const args of [
    ['new', 'aligned'],
    ['new', 'bare', '--no-hello'],
  ]) {
    const steps = (await cli(args, env, parent)).stdout.split('Next steps:\n')[1] ?? '';
    const columns = steps
      .split('\n')
      .filter((line) => line.includes('#'))
      .map((line) => line.indexOf('#'));
    t.ok(columns.length >= 3, `${args.join(' ')}: the commands are there`);
    t.same(new Set(columns).size, 1, `${args.join(' ')}: one column (${columns.join(', ')})`);
  }
});
