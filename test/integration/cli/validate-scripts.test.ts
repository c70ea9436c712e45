import { chmodSync, mkdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import t from 'tap';
import { cli, newProject, sharedCliEnv, tempDir } from '../../helpers/cli-projects.js';
import { type ValidateMessage, validateJson } from '../../helpers/validate-report.js';

const env = sharedCliEnv();

const onFile = (messages: ValidateMessage[], file: string) => messages.filter((message) => message.file === file);

t.test('scripts with CRLF line endings are errors naming the fix; --fix leaves their content alone', async (t) => {
  const root = await newProject(t, env);
  const crlf = (text: string) => text.replace(/\n/g, '\r\n');
  const tool = join(root, 'tools/hello/tool.sh');
  writeFileSync(tool, crlf(readFileSync(tool, 'utf8')));
  writeFileSync(join(root, 'tools/hello/lib.sh'), crlf('#!/usr/bin/env bash\nhelper() { :; }\n'), { mode: 0o644 });
  writeFileSync(join(root, 'server.d/policy.sh'), crlf('mcp_tools_policy_check() { return 0; }\n'), {
    mode: 0o644,
  });
  mkdirSync(join(root, 'providers'));
  writeFileSync(join(root, 'providers/echo2.sh'), crlf('#!/usr/bin/env bash\nprintf "%s" "$1"\n'), { mode: 0o755 });
  const before = readFileSync(tool);
  const { code, report } = await validateJson(t, env, root, ['--fix']);
  t.equal(code, 1, 'CRLF fails validation');
  const crlfErrors = report.messages.filter((m) => m.level === 'error' && /CRLF/.test(m.message));
  t.same(
    crlfErrors.map((m) => [m.section, m.file]).sort(),
    [
      ['registrations', 'server.d/policy.sh'],
      ['resources', 'providers/echo2.sh'],
      ['tools', 'tools/hello/lib.sh'],
      ['tools', 'tools/hello/tool.sh'],
    ],
    'tool scripts, their helpers, hooks and providers are checked',
  );
  t.match(
    crlfErrors.find((m) => m.file === 'tools/hello/tool.sh')?.message,
    new RegExp(
      String.raw`bash\\r: No such file or directory.*sed -i 's\/\\r\$\/\/' tools\/hello\/tool\.sh ` +
        String.raw`\(or dos2unix tools\/hello\/tool\.sh\)`,
    ),
    'the message names the symptom and the fix',
  );
  t.same(readFileSync(tool), before, '--fix does not rewrite the script');
  t.equal(report.fixesApplied, 0);
  t.same(
    onFile(report.messages, 'tools/hello/tool.sh').map((m) => m.level),
    ['error'],
    'no ✓ beside the ✗ for the same script',
  );
  const human = await cli(['validate'], env, root);
  t.match(human.stdout, /4 error\(s\) found \(warnings: \d+\)\.\n/, 'the summary ends there');
  t.notMatch(human.stdout, /--fix' repairs/, 'no --fix advice for what --fix cannot repair');
});

t.test('CRLF bytes in a binary, a data file or past a Python shebang are no error', async (t) => {
  const root = await newProject(t, env, 'crlf-others');
  const dir = join(root, 'tools/hello');
  // An executable binary: NUL bytes, and "\r\n" inside its data as binaries often have.
  writeFileSync(join(dir, 'helper-bin'), Buffer.from([0x7f, 0x45, 0x4c, 0x46, 0, 0, 0x0d, 0x0a, 0x01, 0]), {
    mode: 0o755,
  });
  writeFileSync(join(dir, 'table.csv'), 'a,b\r\n1,2\r\n', { mode: 0o755 });
  writeFileSync(join(dir, 'report.py'), '#!/usr/bin/env python3\nprint("a")\r\nprint("b")\r\n', { mode: 0o755 });
  writeFileSync(join(dir, 'broken.py'), '#!/usr/bin/env python3\r\nprint("a")\r\n', { mode: 0o755 });
  const { report } = await validateJson(t, env, root);
  t.same(
    report.messages
      .filter((m) => /CRLF/.test(m.message))
      .map((m) => m.file)
      .sort(),
    ['tools/hello/broken.py'],
    'only the script whose shebang line ends in \\r (env would look for "python3\\r")',
  );
});

t.test(
  'a Bash script without the exec bit is a warning (the server runs it with bash); another interpreter an error',
  async (t) => {
    const root = await newProject(t, env);
    chmodSync(join(root, 'tools/hello/tool.sh'), 0o644);
    const ran = await cli(['run-tool', 'hello', '--allow-self', '--args', '{"name":"Ada"}'], env, root);
    t.equal(ran.code, 0, `the server runs it: ${ran.stderr}`);
    t.match(ran.stdout, /Hello, Ada!/);
    const bash = await validateJson(t, env, root);
    t.equal(bash.code, 0, 'a warning does not fail validation');
    t.same(
      onFile(bash.report.messages, 'tools/hello/tool.sh').map((m) => [m.level, m.message.replace(/^.*?: /, '')]),
      [
        [
          'warning',
          'not executable: the server runs it with bash, but it cannot be run directly ' +
            '(chmod +x, or mcp-bash validate --fix)',
        ],
        ['info', 'tool "hello"'],
      ],
    );
    const human = await cli(['validate'], env, root);
    t.match(
      human.stdout,
      /All checks passed \(warnings: 1\)\. 'mcp-bash validate --fix' repairs the file permissions \(1 finding\)\./,
    );
    const strict = await cli(['validate', '--strict'], env, root);
    t.equal(strict.code, 1, '--strict still fails on it');
    mkdirSync(join(root, 'tools/py'));
    writeFileSync(join(root, 'tools/py/tool.py'), '#!/usr/bin/env python3\nprint("hi")\n', { mode: 0o644 });
    writeFileSync(join(root, 'tools/py/tool.py.meta.json'), JSON.stringify({ name: 'py', description: 'python' }));
    const python = await validateJson(t, env, root);
    t.equal(python.code, 1);
    t.same(
      onFile(python.report.messages, 'tools/py/tool.py').map((m) => [m.level, m.message.replace(/^.*?: /, '')]),
      [
        [
          'error',
          'not executable, so the server runs it with bash, not python3 (chmod +x, or mcp-bash validate --fix)',
        ],
      ],
      'an error, and no ✓ beside it',
    );
    const fixed = await validateJson(t, env, root, ['--fix']);
    t.equal(fixed.code, 0, JSON.stringify(fixed.report.messages.filter((m) => m.level === 'error')));
    t.equal(fixed.report.fixesApplied, 2);
  },
);

t.test('the summary offers --fix only when it would repair something', async (t) => {
  const root = await newProject(t, env);
  writeFileSync(join(root, 'tools/hello/tool.meta.json'), '{"name": "hello",');
  const broken = await cli(['validate'], env, root);
  t.equal(broken.code, 1);
  t.match(broken.stdout, /✗ tools\/hello\/tool\.meta\.json: invalid JSON/);
  t.match(broken.stdout, /1 error\(s\) found \(warnings: \d+\)\.\n$/);
  chmodSync(join(root, 'tools/hello/tool.sh'), 0o666);
  const permissions = await cli(['validate'], env, root);
  t.match(
    permissions.stdout,
    /2 error\(s\) found \(warnings: \d+\)\. 'mcp-bash validate --fix' repairs the file permissions \(2 findings\)\./,
  );
});

t.test('a tool script that is a symlink out of tools/ is the error the server gives, not a pass', async (t) => {
  const root = await newProject(t, env, 'linked');
  const elsewhere = join(tempDir(), 'tool.sh');
  writeFileSync(elsewhere, '#!/usr/bin/env bash\necho hi\n', { mode: 0o644 });
  mkdirSync(join(root, 'tools/ln'));
  symlinkSync(elsewhere, join(root, 'tools/ln/tool.sh'));
  writeFileSync(join(root, 'tools/ln/tool.meta.json'), '{"name":"ln","description":"Linked"}');
  const refusal = 'path rejected by policy: ln/tool.sh resolves outside the tools directory';
  const run = await cli(['run-tool', 'ln', '--allow-self'], env, root);
  t.match(run.stderr, refusal, 'what the server says');
  const { code, report } = await validateJson(t, env, root);
  t.equal(code, 1);
  t.same(
    onFile(report.messages, 'tools/ln/tool.sh').map((m) => [m.level, m.message]),
    [['error', `tools/ln/tool.sh: the server refuses to run it: ${refusal}`]],
    'one error in the server words; no chmod advice and no pass line',
  );
  writeFileSync(
    join(root, 'server.d/register.json'),
    JSON.stringify({ version: 1, tools: [{ name: 'ln', description: 'Linked', path: 'ln/tool.sh' }] }),
  );
  const listed = await validateJson(t, env, root);
  t.ok(
    listed.report.messages.some(
      (m) => m.level === 'error' && m.message.endsWith('tool script ln/tool.sh resolves outside the tools directory'),
    ),
    'a register.json entry pointing out of tools/ too',
  );
});
