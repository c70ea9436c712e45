import { spawnSync } from 'node:child_process';
import { existsSync, lstatSync, mkdirSync, readdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import t from 'tap';
import { cli, newProject, sharedCliEnv, tempDir } from '../../helpers/cli-projects.js';
import { copyProject } from '../../helpers/fixtures.js';
import { McpProcess } from '../../helpers/mcp-process.js';
import { binaryCommand, repoRoot } from '../../helpers/paths.js';
import { toolEnv } from '../../helpers/run-binary.js';

const env = sharedCliEnv();

t.test('an unusable TMPDIR at start: one line naming the path and the cause, and the server serves', async (t) => {
  const notADirectory = join(tempDir(), 'tmp-is-a-file');
  writeFileSync(notADirectory, '');
  const server = new McpProcess({
    projectRoot: copyProject(join(repoRoot, 'assets', 'examples', '00-hello-tool'), 'hello'),
    env: toolEnv({ TMPDIR: notADirectory }),
  });
  await server.initialize();
  t.same((await server.request('ping')).result, {});
  const listed = await server.request('tools/list');
  t.match(listed.result, { tools: [{ name: 'hello' }] }, 'lists are served');
  const call = await server.request('tools/call', { name: 'hello', arguments: {} });
  t.match(call.error, { code: -32603, message: /not a directory \(ENOTDIR\)/ }, 'a call says why it cannot run');
  await server.close();
  const lines = server.stderr.split('\n').filter((line) => line.includes(notADirectory));
  t.ok(lines.length >= 1, server.stderr);
  t.match(
    lines[0],
    new RegExp(
      '^mcp-bash: warning: cannot mkdir .*tmp-is-a-file\\/mcpbash\\.state\\.[^:]*: not a directory ' +
        '\\(ENOTDIR\\); serving anyway',
    ),
  );
  t.notMatch(server.stderr, /internal error|\n\s+at /, 'no stack trace');
});

t.test('init where tools is a regular file: one line, exit 1, nothing written', async (t) => {
  const dir = tempDir();
  writeFileSync(join(dir, 'tools'), 'not a directory\n');
  const run = await cli(['init'], env, dir);
  t.equal(run.code, 1);
  t.equal(run.stderr.trim().split('\n')[0], 'mcp-bash init: tools exists and is not a directory; nothing was written');
  t.notMatch(run.stderr, /internal error|\n\s+at /);
  t.same(readdirSync(dir).sort(), ['tools'], 'no server.d, no .gitignore');
});

// A write that fails part-way (RLIMIT_FSIZE 0 with SIGXFSZ ignored: every write to a file
// fails with EFBIG), the way a full disk does, without needing a full file system.
const failingWrites = (args: string[], cwd: string) =>
  spawnSync(
    'bash',
    ['-c', 'trap "" XFSZ; ulimit -f 0; exec "$@"', 'bash', binaryCommand().command, ...binaryCommand().prefix, ...args],
    { cwd, env, encoding: 'utf8' },
  );

t.test('a scaffold whose writes fail leaves nothing half-written, so running it again works', async (t) => {
  const root = await newProject(t, env);
  const failed = failingWrites(['scaffold', 'tool', 'weather'], root);
  t.equal(failed.status, 1);
  t.match(failed.stderr, /^mcp-bash scaffold: cannot write .*tools\/weather\/tool\.sh: file too large \(EFBIG\)\n/);
  t.notOk(existsSync(join(root, 'tools', 'weather')), 'no empty tool.sh, no directory');
  t.same(
    readdirSync(join(root, 'tools')).filter((name) => name.startsWith('.')),
    [],
    'no temp files',
  );
  const retry = await cli(['scaffold', 'tool', 'weather'], env, root);
  t.equal(retry.code, 0, retry.stderr);
  t.ok(existsSync(join(root, 'tools', 'weather', 'tool.meta.json')));

  const completion = failingWrites(['scaffold', 'completion', 'topics'], root);
  t.equal(completion.status, 1);
  t.notOk(existsSync(join(root, 'completions')), 'the completion is not half there either');
  t.notOk(existsSync(join(root, 'server.d', 'register.json')));
});

t.test('init never writes through a .gitignore symlink that leaves the project', async (t) => {
  const outside = join(tempDir(), 'global-gitignore');
  writeFileSync(outside, 'node_modules/\n');
  const dir = tempDir();
  symlinkSync(outside, join(dir, '.gitignore'));
  const run = await cli(['init', '--no-hello'], env, dir);
  t.equal(run.code, 0, run.stderr);
  t.match(
    run.stdout,
    new RegExp(
      'Skipped \\.gitignore \\(not changed: it is a symbolic link to .*global-gitignore, outside the project; ' +
        'add \\.registry\\/ ',
    ),
  );
  t.equal(readFileSync(outside, 'utf8'), 'node_modules/\n', 'the outside file is untouched');
  t.ok(lstatSync(join(dir, '.gitignore')).isSymbolicLink());

  const inside = tempDir();
  writeFileSync(join(inside, 'shared.gitignore'), 'dist/\n');
  symlinkSync('shared.gitignore', join(inside, '.gitignore'));
  const linked = await cli(['init', '--no-hello'], env, inside);
  t.equal(linked.code, 0, linked.stderr);
  t.match(linked.stdout, /Updated \.gitignore/);
  t.equal(readFileSync(join(inside, 'shared.gitignore'), 'utf8'), 'dist/\n.registry/\n*.log\n.DS_Store\nThumbs.db\n');
  t.ok(lstatSync(join(inside, '.gitignore')).isSymbolicLink(), 'a link inside the project stays a link');
});

const USER_REGISTER_JSON = `{
    "version": 1,
    "tools": [
        {"name": "big", "path": "tools/big.sh", "timeoutSecs": 12345678901234567890}
    ],
    "completions": [
        {
            "name": "topics",
            "path": "completions/topics/completion.sh"
        }
    ],
    "version": 1
}
`;

t.test('scaffold completion edits register.json in place: nothing but the new entry changes', async (t) => {
  const root = await newProject(t, env, 'demo', ['--no-hello']);
  const registerPath = join(root, 'server.d', 'register.json');
  writeFileSync(registerPath, USER_REGISTER_JSON);
  const run = await cli(['scaffold', 'completion', 'colors'], env, root);
  t.equal(run.code, 0, run.stderr);
  t.equal(
    readFileSync(registerPath, 'utf8'),
    USER_REGISTER_JSON.replace(
      '"completions/topics/completion.sh"\n        }\n',
      '"completions/topics/completion.sh"\n        },\n        {\n            "name": "colors",\n            ' +
        '"path": "completions/colors/completion.sh",\n            "timeoutSecs": 5\n        }\n',
    ),
    'formatting, the big number and the duplicate key are kept',
  );
});

t.test(
  'scaffold completion keeps a symlinked register.json a link, and refuses one that leaves the project',
  async (t) => {
    const root = await newProject(t, env, 'demo', ['--no-hello']);
    const registerPath = join(root, 'server.d', 'register.json');
    mkdirSync(join(root, 'config'));
    writeFileSync(join(root, 'config', 'register.json'), '{"version":1}');
    symlinkSync('../config/register.json', registerPath);
    const inside = await cli(['scaffold', 'completion', 'topics'], env, root);
    t.equal(inside.code, 0, inside.stderr);
    t.ok(lstatSync(registerPath).isSymbolicLink(), 'still a link');
    t.equal(
      readFileSync(join(root, 'config', 'register.json'), 'utf8'),
      '{"version":1, "completions": [{"name":"topics","path":"completions/topics/completion.sh","timeoutSecs":5}]}',
    );

    const other = await newProject(t, env, 'other', ['--no-hello']);
    const outside = join(tempDir(), 'register.json');
    writeFileSync(outside, '{"version":1}');
    symlinkSync(outside, join(other, 'server.d', 'register.json'));
    const refused = await cli(['scaffold', 'completion', 'topics'], env, other);
    t.equal(refused.code, 1);
    t.match(
      refused.stderr,
      /register\.json cannot be edited: it is a symbolic link to .*, outside the project; nothing was scaffolded/,
    );
    t.equal(readFileSync(outside, 'utf8'), '{"version":1}', 'the outside file is untouched');
    t.notOk(existsSync(join(other, 'completions')), 'nothing was scaffolded');
  },
);
