import { chmodSync, mkdirSync, readFileSync, rmSync, statSync, unlinkSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import t from 'tap';
import { cli, newProject, parseJson, sharedCliEnv, tempDir } from '../../helpers/cli-projects.js';
import { type ValidateMessage, validateJson } from '../../helpers/validate-report.js';

const env = sharedCliEnv();

const find = (messages: ValidateMessage[], level: string, file: string, pattern: RegExp) =>
  messages.find((message) => message.level === level && message.file === file && pattern.test(message.message));

t.test('a fresh project passes; the human output has the sections and the summary', async (t) => {
  const root = await newProject(t, env);
  const run = await cli(['validate', '--explain-defaults', '--inspector'], env, root);
  t.equal(run.code, 0, run.stdout);
  t.match(
    run.stdout,
    new RegExp(
      String.raw`^Validating project at .+\.\.\.\n\nServer\n {2}✓ ` +
        String.raw`server\.d\/server\.meta\.json: server "demo" 0\.1\.0\n\nTools\n`,
    ),
  );
  t.match(run.stdout, /✓ tools\/hello\/tool\.sh: tool "hello"/);
  t.match(run.stdout, /Defaults used: name=demo, title=Demo, version=0\.1\.0\n {2}name: {4}server\.meta\.json/);
  t.match(run.stdout, /All checks passed \(warnings: 0\)\./);
  t.match(run.stdout, /npx @modelcontextprotocol\/inspector --cli -e MCPBASH_PROJECT_ROOT=.+ --method tools\/list/);
  t.notMatch(run.stdout, /\u001b\[/, 'no colours with NO_COLOR / off a terminal');
  // Issue 13: `mcp-bash new demo && cd demo && mcp-bash validate --strict` passes (the
  // placeholder description is pointed out by `bundle`, where it is published, D234).
  const strict = await cli(['validate', '--strict'], env, root);
  t.equal(strict.code, 0, `--strict passes a fresh project: ${strict.stdout}`);
  t.match(strict.stdout, /All checks passed \(warnings: 0\)\./);
  t.notMatch(strict.stdout, /namespace/, 'no namespace warning on the scaffolded tool (D132)');
});

t.test('metadata problems are errors naming the file and the field (JSON Schema)', async (t) => {
  const root = await newProject(t, env);
  mkdirSync(join(root, 'tools/bad'));
  writeFileSync(
    join(root, 'tools/bad/tool.meta.json'),
    JSON.stringify({
      name: 'bad name',
      inputSchema: { type: 'array' },
      timeoutSecs: 0,
      annotations: { readOnlyHint: 'yes' },
    }),
  );
  writeFileSync(join(root, 'tools/bad/tool.sh'), '#!/bin/bash\necho hi\n', { mode: 0o755 });
  mkdirSync(join(root, 'tools/orphan'));
  writeFileSync(join(root, 'tools/orphan/orphan.meta.json'), '{"name": "orphan"');
  writeFileSync(join(root, 'server.d/server.meta.json'), JSON.stringify({ title: 'no name', icons: [{ url: 'x' }] }));
  const { code, report } = await validateJson(t, env, root);
  t.equal(code, 1);
  const meta = 'tools/bad/tool.meta.json';
  t.ok(find(report.messages, 'error', meta, /must match pattern/), 'name pattern');
  t.same(
    report.messages
      .filter((m) => m.file === meta && m.level === 'error')
      .map((m) => m.field)
      .sort(),
    ['/inputSchema/type', '/name'],
    'what makes the server skip the tool is an error (D193)',
  );
  t.same(
    report.messages
      .filter((m) => m.file === meta && m.level === 'warning' && /the server ignores this value/.test(m.message))
      .map((m) => m.field)
      .sort(),
    ['/annotations/readOnlyHint', '/timeoutSecs'],
    'a value the server ignores is a warning',
  );
  t.ok(
    find(report.messages, 'error', meta, /^tools\/bad\/tool\.meta\.json \/inputSchema\/type: must be "object"$/),
    'the allowed value is named',
  );
  t.ok(find(report.messages, 'error', 'tools/orphan/orphan.meta.json', /invalid JSON/));
  t.ok(
    find(
      report.messages,
      'error',
      'tools/orphan/orphan.meta.json',
      /no script for this metadata \(expected orphan\.sh/,
    ),
  );
  t.ok(find(report.messages, 'error', 'server.d/server.meta.json', /must have required property 'name'/));
  t.ok(
    report.messages.find((m) => m.file === 'server.d/server.meta.json' && m.field === '/icons/0'),
    'icons need a src',
  );
});

t.test('--fix makes tool scripts executable and not group-writable; helpers D7 leaves out are listed', async (t) => {
  const root = await newProject(t, env);
  const script = join(root, 'tools/hello/tool.sh');
  chmodSync(script, 0o664);
  writeFileSync(join(root, 'tools/hello/helper.sh'), '#!/bin/bash\n', { mode: 0o755 });
  mkdirSync(join(root, 'tools/lonely'));
  writeFileSync(join(root, 'tools/lonely/run.sh'), '#!/bin/bash\n', { mode: 0o755 });
  const before = await validateJson(t, env, root);
  t.equal(before.code, 1);
  t.ok(find(before.report.messages, 'warning', 'tools/hello/tool.sh', /not executable: the server runs it with bash/));
  t.ok(find(before.report.messages, 'error', 'tools/hello/tool.sh', /writable by group or others/));
  t.ok(find(before.report.messages, 'info', 'tools/hello/helper.sh', /helper script \(no metadata\), not a tool/));
  t.ok(find(before.report.messages, 'warning', 'tools/lonely/run.sh', /not a tool: its directory has no tool/));
  // A script with metadata but neither an exec bit nor a .sh name is not discovered until --fix.
  mkdirSync(join(root, 'tools/plain'));
  writeFileSync(join(root, 'tools/plain/plain'), '#!/bin/bash\necho plain\n', { mode: 0o644 });
  writeFileSync(
    join(root, 'tools/plain/plain.meta.json'),
    JSON.stringify({ name: 'plain', description: 'no .sh name' }),
  );
  const fixed = await validateJson(t, env, root, ['--fix']);
  t.equal(fixed.code, 0, JSON.stringify(fixed.report.messages.filter((m) => m.level === 'error')));
  t.equal(fixed.report.fixesApplied, 3);
  t.equal(statSync(script).mode & 0o777, 0o755);
  t.ok(find(fixed.report.messages, 'info', 'tools/plain/plain', /made executable \(--fix\)/));
  t.ok(
    find(fixed.report.messages, 'info', 'tools/plain/plain', /tool "plain"/),
    'the report describes the project after the repair',
  );
});

t.test('prompts, resources and registrations are checked without the server', async (t) => {
  const root = await newProject(t, env);
  for (const kind of ['prompt', 'resource', 'completion'])
    t.equal((await cli(['scaffold', kind, 'demo-item'], env, root)).code, 0);
  writeFileSync(join(root, 'prompts/demo-item/demo-item.txt'), 'Hello ${name} and {{subject}} and {{undeclared}}\n');
  mkdirSync(join(root, 'prompts/old'));
  writeFileSync(
    join(root, 'prompts/old/old.meta.json'),
    JSON.stringify({ name: 'old', description: 'x', path: 'prompts/old/old.txt' }),
  );
  writeFileSync(join(root, 'prompts/old/old.txt'), 'x');
  writeFileSync(
    join(root, 'resources/demo-item/both.meta.json'),
    JSON.stringify({ name: 'both', uri: 'echo://x', uriTemplate: 'echo://{x}' }),
  );
  writeFileSync(
    join(root, 'resources/demo-item/odd.meta.json'),
    JSON.stringify({ name: 'odd', uri: 'odd://x', annotations: { priority: 3 } }),
  );
  writeFileSync(join(root, 'completions/demo-item/stray.sh'), '#!/bin/bash\n', { mode: 0o755 });
  writeFileSync(join(root, 'server.d/register.sh'), '#!/bin/bash\n', { mode: 0o755 });
  const { report } = await validateJson(t, env, root);
  t.ok(find(report.messages, 'warning', 'prompts/demo-item/demo-item.txt', /\$\{name\} is not substituted/), 'D9');
  t.ok(
    find(
      report.messages,
      'warning',
      'prompts/demo-item/demo-item.txt',
      /\{\{undeclared\}\} is not a declared argument/,
    ),
  );
  t.ok(
    find(
      report.messages,
      'warning',
      'prompts/old/old.meta.json',
      /relative to the project root, as 1\.x wrote it; it still works, but "old\.txt"/,
    ),
  );
  t.notOk(
    find(report.messages, 'error', 'prompts/old/old.meta.json', /./),
    'the server serves such a prompt, so it is no error',
  );
  t.ok(find(report.messages, 'info', 'resources/demo-item/demo-item.meta.json', /resource "resource.demo-item"/));
  t.ok(find(report.messages, 'error', 'resources/demo-item/both.meta.json', /both "uri".*and "uriTemplate"/));
  t.ok(find(report.messages, 'warning', 'resources/demo-item/odd.meta.json', /must be <= 1: the server ignores/));
  t.ok(find(report.messages, 'warning', 'server.d/register.sh', /ignored: server\.d\/register\.json exists/));
  t.ok(find(report.messages, 'warning', 'completions/demo-item/stray.sh', /not registered/));
  t.notOk(
    report.messages.find((m) => m.file === 'completions/demo-item/completion.sh' && m.level !== 'info'),
    'the registered script is fine',
  );
  writeFileSync(join(root, 'server.d/register.json'), JSON.stringify({ version: 2, tools: [], bogus: [] }));
  const broken = await validateJson(t, env, root);
  t.ok(
    find(
      broken.report.messages,
      'error',
      'server.d/register.json',
      /does not match the register\.json format, so every kind fails/,
    ),
  );
  t.ok(
    broken.report.messages.find(
      (m) => m.file === 'server.d/register.json' && m.field === '/version' && /must be 1/.test(m.message),
    ),
    'the field is named',
  );
  t.ok(
    broken.report.messages.find(
      (m) => m.file === 'server.d/register.json' && /additional properties \(found "bogus"\)/.test(m.message),
    ),
    'the unknown key is named',
  );
  writeFileSync(join(root, 'server.d/register.json'), '{"version": 1, "tools": [');
  const unparsable = await validateJson(t, env, root);
  t.ok(
    find(
      unparsable.report.messages,
      'error',
      'server.d/register.json',
      /invalid, so every kind fails: it is not valid JSON/,
    ),
  );
  writeFileSync(
    join(root, 'server.d/register.json'),
    JSON.stringify({ version: 1, tools: [{ name: 'hello', path: 'hello/tool.sh' }, { name: 'x' }] }),
  );
  const pathless = await validateJson(t, env, root);
  t.ok(
    pathless.report.messages.find(
      (m) => m.field === '/tools/1' && /must have required property 'path'/.test(m.message),
    ),
    'a tool entry without a path fails the file',
  );
  writeFileSync(
    join(root, 'server.d/register.json'),
    JSON.stringify({
      version: 1,
      tools: [
        { name: 'hello', path: 'hello/tool.sh' },
        { name: 'ghost', path: 'ghost/tool.sh' },
        { name: 'hello', path: 'hello/tool.sh' },
        { name: 'slow', path: 'hello/tool.sh', timeoutSecs: 'soon' },
      ],
    }),
  );
  const entries = await validateJson(t, env, root);
  const at = (field: string, pattern: RegExp) =>
    entries.report.messages.find(
      (m) => m.file === 'server.d/register.json' && m.field === field && pattern.test(m.message),
    );
  t.ok(at('/tools/3/timeoutSecs', /must match/), 'a wrong field value in a tool entry');
  t.ok(at('/tools/1/path', /ghost\/tool\.sh does not exist/), 'a missing script');
  t.ok(at('/tools/2/name', /registered twice/), 'a duplicate tool name');
  unlinkSync(join(root, 'server.d/register.json'));
  const hooks = await validateJson(t, env, root);
  t.ok(find(hooks.report.messages, 'warning', 'server.d/register.sh', /MCPBASH_ALLOW_PROJECT_HOOKS=true/));
});

t.test('validate needs a project; --project-root picks one', async (t) => {
  const root = await newProject(t, env);
  const elsewhere = tempDir();
  const missing = await cli(['validate'], env, elsewhere);
  t.equal(missing.code, 1);
  t.match(missing.stderr, /no mcp-bash project found/);
  t.equal((await cli(['validate', '--project-root', root], env, elsewhere)).code, 0);
  t.equal((await cli(['validate', '--wat'], env, root)).code, 2);
});

t.test(
  'the 1.x checks: templates need a {variable}, uris a scheme; a missing server.meta.json is a warning; ' +
    'shebang and directory name',
  async (t) => {
    const root = await newProject(t, env);
    mkdirSync(join(root, 'resources'), { recursive: true });
    writeFileSync(
      join(root, 'resources/flat.meta.json'),
      JSON.stringify({ name: 'flat', uriTemplate: 'echo://no-variable' }),
    );
    writeFileSync(
      join(root, 'resources/bare.meta.json'),
      JSON.stringify({ name: 'bare', uri: 'just-a-name', provider: 'echo' }),
    );
    mkdirSync(join(root, 'tools/mismatch'));
    writeFileSync(join(root, 'tools/mismatch/tool.sh'), 'echo no shebang\n', { mode: 0o755 });
    writeFileSync(
      join(root, 'tools/mismatch/tool.meta.json'),
      JSON.stringify({ name: 'demo-other', description: 'x', inputSchema: { type: 'object', properties: {} } }),
    );
    unlinkSync(join(root, 'server.d/server.meta.json'));
    // Without server.meta.json the project is not found from inside it: name it.
    const { code, report } = await validateJson(t, env, root, ['--project-root', root]);
    t.equal(code, 1, 'the template error fails validation');
    t.ok(
      report.messages.find(
        (m) =>
          m.level === 'error' &&
          m.file === 'resources/flat.meta.json' &&
          m.field === '/uriTemplate' &&
          /no \{variable\}/.test(m.message),
      ),
    );
    t.ok(find(report.messages, 'warning', 'resources/bare.meta.json', /has no scheme/));
    t.ok(
      find(report.messages, 'warning', 'server.d/server.meta.json', /missing: the server is named after the directory/),
      'a warning, not an error',
    );
    t.notOk(report.messages.find((m) => m.level === 'error' && m.file === 'server.d/server.meta.json'));
    t.ok(find(report.messages, 'warning', 'tools/mismatch/tool.sh', /no shebang line/));
    t.ok(find(report.messages, 'warning', 'tools/mismatch/tool.meta.json', /does not match its directory "mismatch"/));
  },
);

t.test('register.json-listed tools and prompts, list-form prompt arguments and 1.x roles are understood', async (t) => {
  const root = await newProject(t, env, 'demo', ['--no-hello']);
  mkdirSync(join(root, 'prompts'), { recursive: true });
  mkdirSync(join(root, 'scripts'));
  writeFileSync(join(root, 'tools/clock.sh'), '#!/bin/bash\ndate\n', { mode: 0o755 });
  writeFileSync(join(root, 'prompts/summary.txt'), 'Summarise {{topic}}\n');
  writeFileSync(join(root, 'prompts/standup.txt'), 'Standup for {{team}}\n');
  writeFileSync(
    join(root, 'prompts/standup.meta.json'),
    JSON.stringify({
      name: 'standup',
      description: 'x',
      arguments: [{ name: 'team', required: true }],
      role: 'system',
    }),
  );
  writeFileSync(
    join(root, 'server.d/register.json'),
    JSON.stringify({
      version: 1,
      tools: [{ name: 'demo-clock', description: 'the time', path: 'clock.sh' }],
      prompts: [
        { name: 'summary', description: 'x', path: 'summary.txt', arguments: [{ name: 'topic', required: true }] },
      ],
    }),
  );
  const { code, report } = await validateJson(t, env, root);
  t.equal(code, 0, JSON.stringify(report.messages.filter((m) => m.level === 'error')));
  t.notOk(
    report.messages.find((m) => /no tools found/.test(m.message)),
    'register.json lists the tools',
  );
  t.ok(
    report.messages.find(
      (m) => m.level === 'info' && /register\.json lists the tools \(1\); discovery of tools\/ is off/.test(m.message),
    ),
  );
  t.notOk(
    report.messages.find((m) => m.file === 'prompts/summary.txt' && /not a prompt/.test(m.message)),
    'a template register.json names is a prompt',
  );
  t.notOk(
    report.messages.find((m) => m.file === 'prompts/standup.meta.json' && m.level === 'error'),
    "MCP's list form of arguments is accepted",
  );
  t.notOk(
    report.messages.find((m) => m.file === 'prompts/standup.txt' && /not a declared argument/.test(m.message)),
    'list-form arguments declare placeholders',
  );
  t.ok(find(report.messages, 'warning', 'prompts/standup.meta.json', /role "system" is not an MCP role/));
  const bare = await newProject(t, env, 'bare', ['--no-hello']);
  rmSync(join(bare, 'tools'), { recursive: true });
  mkdirSync(join(bare, 'prompts'));
  const noTools = await validateJson(t, env, bare);
  t.same(
    noTools.report.messages.filter((m) => m.section === 'tools'),
    [],
    'a prompt-only project without tools/ is not warned about it (and gets no ✓ for it)',
  );
  rmSync(join(bare, 'prompts'), { recursive: true });
  const empty = await validateJson(t, env, bare);
  t.same(
    empty.report.messages.filter((m) => m.section === 'tools').map((m) => m.level),
    ['warning'],
    'a project that serves nothing is warned about',
  );
});

t.test('1.x rules: dotted tool names warn (as 1.x did) but are no error, like the server serves them', async (t) => {
  const root = await newProject(t, env);
  mkdirSync(join(root, 'tools/echo'));
  writeFileSync(join(root, 'tools/echo/tool.meta.json'), JSON.stringify({ name: 'demo.echo', description: 'x' }));
  writeFileSync(join(root, 'tools/echo/tool.sh'), '#!/bin/bash\necho hi\n', { mode: 0o755 });
  writeFileSync(
    join(root, 'server.d/register.json'),
    JSON.stringify({ version: 1, tools: [{ name: 'manual.progress', path: 'echo/tool.sh' }] }),
  );
  const { code, report } = await validateJson(t, env, root);
  t.equal(report.errors, 0, JSON.stringify(report.messages.filter((m) => m.level === 'error')));
  t.equal(code, 0);
  t.ok(find(report.messages, 'warning', 'tools/echo/tool.meta.json', /"demo\.echo" has a dot: MCP allows it/));
  t.ok(find(report.messages, 'warning', 'server.d/register.json', /"manual\.progress" has a dot/));
});

t.test('1.x rules: a tool.meta.json without "name" is an error; server.meta.json needs no description', async (t) => {
  const root = await newProject(t, env);
  writeFileSync(join(root, 'tools/hello/tool.meta.json'), JSON.stringify({ description: 'no name' }));
  writeFileSync(join(root, 'server.d/server.meta.json'), JSON.stringify({ name: 'demo' }));
  const { code, report } = await validateJson(t, env, root, ['--strict']);
  t.equal(code, 1);
  t.ok(find(report.messages, 'error', 'tools/hello/tool.meta.json', /no "name"/));
  t.same(
    report.messages.filter((m) => m.section === 'server' && m.level !== 'info'),
    [],
    'nothing to say about a server.meta.json without description',
  );
});

t.test('annotations.audience beyond user/assistant: a warning, as the server drops them (D127)', async (t) => {
  const root = await newProject(t, env);
  mkdirSync(join(root, 'resources'));
  writeFileSync(join(root, 'resources/notes.txt'), 'notes\n');
  writeFileSync(
    join(root, 'resources/notes.meta.json'),
    JSON.stringify({ name: 'notes', annotations: { audience: ['user', 'model'] } }),
  );
  const { code, report } = await validateJson(t, env, root);
  t.equal(code, 0, 'no error: 1.x projects with other values still pass');
  t.ok(find(report.messages, 'warning', 'resources/notes.meta.json', /annotations\.audience "model" dropped/));
});

t.test('file:// URIs outside resources/ warn, unless MCP_RESOURCES_ROOTS serves them', async (t) => {
  const root = await newProject(t, env);
  mkdirSync(join(root, 'docs'), { recursive: true });
  mkdirSync(join(root, 'resources'), { recursive: true });
  for (const name of ['a', 'b']) {
    writeFileSync(join(root, 'docs', `${name}.txt`), `${name}\n`);
    const meta = { name, uri: `file://${join(root, 'docs', `${name}.txt`)}` };
    writeFileSync(join(root, 'resources', `${name}.meta.json`), JSON.stringify(meta));
  }
  const outside = (messages: ValidateMessage[]) =>
    messages.filter(
      (message) => message.field === '/uri' && /is outside resources\/: reads fail/.test(message.message),
    );
  const flagged = await validateJson(t, env, root);
  t.same(
    outside(flagged.report.messages).map((message) => message.file?.replace(/.*\//, '')),
    ['a.meta.json', 'b.meta.json'],
    'each URI in the project but outside resources/ is flagged',
  );
  const served = await cli(['validate', '--json'], { ...env, MCP_RESOURCES_ROOTS: join(root, 'docs') }, root);
  const report = parseJson(t, served.stdout, 'validate --json (MCP_RESOURCES_ROOTS)') as {
    messages: ValidateMessage[];
  };
  t.same(outside(report.messages), [], 'no warning when the provider serves docs/');
});

t.test('a misspelled metadata field is pointed out; other unknown fields are left alone', async (t) => {
  const root = await newProject(t, env, 'typos');
  writeFileSync(
    join(root, 'tools/hello/tool.meta.json'),
    JSON.stringify({
      name: 'hello',
      descripton: 'Says hello',
      inputschema: { type: 'object' },
      myNotes: 'kept for the team',
      _comment: 'ours',
      annotations: { readonlyHint: true, audience: 'ops' },
    }),
  );
  mkdirSync(join(root, 'tools/inline'));
  writeFileSync(
    join(root, 'tools/inline/tool.sh'),
    '#!/usr/bin/env bash\n# mcp: {"name":"inline","description":"x","timeoutSec":5}\nprintf ok\n',
    { mode: 0o755 },
  );
  const { code, report } = await validateJson(t, env, root);
  t.equal(code, 0, 'warnings only');
  t.same(
    report.messages
      .filter((m) => /unknown field/.test(m.message))
      // The message text after its "file field: " prefix.
      .map((m) => [m.file, m.field, m.message.slice(m.message.indexOf('unknown field'))])
      .sort(),
    [
      [
        'tools/hello/tool.meta.json',
        '/annotations/readonlyHint',
        'unknown field "readonlyHint" is ignored (did you mean "readOnlyHint"?)',
      ],
      [
        'tools/hello/tool.meta.json',
        '/descripton',
        'unknown field "descripton" is ignored (did you mean "description"?)',
      ],
      [
        'tools/hello/tool.meta.json',
        '/inputschema',
        'unknown field "inputschema" is ignored (did you mean "inputSchema"?)',
      ],
      [
        'tools/inline/tool.sh',
        '# mcp:/timeoutSec',
        'unknown field "timeoutSec" is ignored (did you mean "timeoutSecs"?)',
      ],
    ],
  );
});

t.test('a header whose inputSchema or arguments is not an object is advice, not a crash', async (t) => {
  const root = await newProject(t, env, 'odd-schemas');
  for (const [dir, header] of [
    ['nullargs', '{"name":"nullargs","description":"x","arguments":null}'],
    ['listschema', '{"name":"listschema","description":"x","inputSchema":[1]}'],
  ]) {
    mkdirSync(join(root, 'tools', dir as string));
    writeFileSync(join(root, 'tools', dir as string, 'tool.sh'), `#!/usr/bin/env bash\n# mcp: ${header}\nprintf ok\n`, {
      mode: 0o755,
    });
  }
  const { code, report } = await validateJson(t, env, root);
  t.not(code, 3, 'no internal error');
  t.same(
    report.messages
      .filter((m) => /no inputSchema properties/.test(m.message))
      .map((m) => m.file)
      .sort(),
    ['tools/listschema/tool.sh', 'tools/nullargs/tool.sh'],
  );
});

t.test('validate warns, as the server does, about every "# mcp:" line that is not a JSON object', async (t) => {
  const root = await newProject(t, env);
  const script = (path: string, header: string) => {
    mkdirSync(join(root, dirname(path)), { recursive: true });
    writeFileSync(join(root, path), `#!/usr/bin/env bash\n${header}\nprintf ok\n`, { mode: 0o755 });
  };
  script('tools/oops/tool.sh', '# mcp: {"description": oops}');
  script('tools/list/tool.sh', '# mcp: [1,2]');
  script('tools/list/helper.sh', '# mcp: {"name":"x"');
  const { report } = await validateJson(t, env, root);
  t.same(
    report.messages
      .filter((m) => m.level === 'warning' && /"# mcp:" header is not a JSON object; ignored/.test(m.message))
      .map((m) => m.file)
      .sort(),
    ['tools/list/helper.sh', 'tools/list/tool.sh', 'tools/oops/tool.sh'],
  );
});

t.test('validate says a header beside a meta.json that names the tool is not read (D282)', async (t) => {
  const root = await newProject(t, env);
  // The scaffolded hello tool has a tool.meta.json naming it; give its script headers too.
  const script = join(root, 'tools/hello/tool.sh');
  const body = readFileSync(script, 'utf8').replace(/\n/, '\n# mcp: {"description": oops}\n');
  writeFileSync(script, body);
  const { report } = await validateJson(t, env, root);
  const about = report.messages.filter((m) => m.file === 'tools/hello/tool.sh' && /mcp:/.test(m.message));
  t.same(
    about.map((m) => [m.level, m.message.replace(/^.*?: its/, 'its')]),
    [['info', 'its "# mcp:" header is not read: tool.meta.json names or describes the tool, so it alone does']],
    'no warning about a header the server never reads, but a note that it is ignored',
  );
});

t.test('validate checks a header merged under a meta.json that neither names nor describes the tool', async (t) => {
  const root = await newProject(t, env);
  mkdirSync(join(root, 'tools/merged'));
  writeFileSync(
    join(root, 'tools/merged/tool.sh'),
    '#!/usr/bin/env bash\n# mcp: {"name":"merged","description":"from the header","timeoutSec":3}\nprintf ok\n',
    { mode: 0o755 },
  );
  writeFileSync(join(root, 'tools/merged/tool.meta.json'), JSON.stringify({ timeoutSecs: 7 }));
  const { code, report } = await validateJson(t, env, root);
  const about = report.messages
    .filter((m) => m.file?.startsWith('tools/merged/'))
    .map((m) => `${m.level}: ${m.message.slice(m.message.indexOf(': ') + 2)}`);
  t.equal(code, 0, 'no error: the header names the tool, as the server reads it (D282)');
  t.notOk(
    about.some((line) => /must name its tool/.test(line)),
    'no "the metadata must name its tool"',
  );
  t.ok(
    about.some((line) => /unknown field "timeoutSec" is ignored \(did you mean "timeoutSecs"\?\)/.test(line)),
    `the header is checked as metadata (${about.join(' | ')})`,
  );
  t.ok(
    about.some((line) => /^info: tool "merged"/.test(line)),
    'and the tool is reported',
  );
});
