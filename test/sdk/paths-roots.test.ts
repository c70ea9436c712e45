import { mkdirSync, realpathSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import t from 'tap';
import { fullJsonTools, sandbox, sh } from '../helpers/sdk-harness.js';

t.test('mcp_path_collapse is lexical and relative to $PWD', async (t) => {
  const box = sandbox(t);
  const dir = realpathSync(box.dir);
  const run = await box.run(
    `cd ${sh(dir)}; for p in a/b/../c ./x//y/. /a/../../b '' / /.. 'sp ace/../q' '/tmp/[x]*/..'; do printf ` +
      `'%s\\n' "$(mcp_path_collapse "$p")"; done`,
  );
  t.equal(run.stdout, [`${dir}/a/c`, `${dir}/x/y`, '/b', dir, '/', '/', `${dir}/q`, '/tmp', ''].join('\n'));
});

t.test('mcp_path_normalize resolves symlinks physically (like realpath -m), or only lexically', async (t) => {
  const box = sandbox(t);
  const dir = realpathSync(box.dir);
  mkdirSync(join(dir, 'real', 'inner'), { recursive: true });
  symlinkSync(join(dir, 'real'), join(dir, 'link'));
  symlinkSync('real/inner', join(dir, 'rel-link'));
  symlinkSync('loop-b', join(dir, 'loop-a'));
  symlinkSync('loop-a', join(dir, 'loop-b'));
  const run = await box.run(
    `cd ${sh(dir)}
     mcp_path_normalize link/inner/../file; echo
     mcp_path_normalize --physical rel-link/missing/x; echo
     mcp_path_normalize --logical link/inner/../file; echo
     mcp_path_normalize -- link; echo
     mcp_path_normalize ''; echo
     mcp_path_normalize loop-a/x; echo
     mcp_sdk_load_path_helpers && echo loaded`,
  );
  t.equal(run.code, 0, run.stderr);
  const lines = run.stdout.split('\n');
  t.equal(lines[0], join(dir, 'real', 'file'), '".." applies after the symlink is resolved');
  t.equal(lines[1], join(dir, 'real', 'inner', 'missing', 'x'), 'relative links and missing components');
  t.equal(lines[2], join(dir, 'link', 'file'), '--logical keeps the link');
  t.equal(lines[3], join(dir, 'real'));
  t.equal(lines[4], dir);
  t.match(lines[5], /^\//, 'a symlink loop terminates');
  t.equal(lines[6], 'loaded');
});

t.test('roots helpers', async (t) => {
  const box = sandbox(t);
  const dir = realpathSync(box.dir);
  const rootA = join(dir, 'root-a');
  const glob = join(dir, 'root[1]');
  mkdirSync(join(rootA, 'sub'), { recursive: true });
  mkdirSync(glob);
  mkdirSync(join(dir, 'root1'));
  mkdirSync(join(dir, 'root-ab'));
  symlinkSync(join(dir, 'root-ab'), join(rootA, 'escape'));
  const roots = [rootA, glob];
  const check = async (path: string) =>
    (await box.run(`mcp_roots_contains ${sh(path)} && echo in || echo out`, { roots })).stdout.trim();

  const listed = await box.run('mcp_roots_list; printf "|"; mcp_roots_count', { roots });
  t.equal(listed.stdout, `${rootA}\n${glob}|2`);
  const none = await box.run('mcp_roots_list; printf "|"; mcp_roots_count', {
    env: { MCP_ROOTS_PATHS: undefined, MCP_ROOTS_COUNT: undefined },
  });
  t.equal(none.stdout, '|0');

  t.equal(await check(rootA), 'in', 'a root itself');
  t.equal(await check(join(rootA, 'sub', 'file')), 'in', 'below a root');
  t.equal(await check(join(rootA, 'sub', '..', '..', 'root-ab')), 'out', '.. escapes are resolved');
  t.equal(await check(join(dir, 'root-ab')), 'out', 'a common prefix is not containment');
  t.equal(await check(join(rootA, 'escape', 'x')), 'out', 'a symlink out of the root is resolved');
  t.equal(await check(join(dir, 'root1', 'x')), 'out', 'glob characters in a root are literal');
  t.equal(await check(join(glob, 'x')), 'in');
  const slash = await box.run(`mcp_roots_contains /etc && echo in`, { roots: ['/'] });
  t.equal(slash.stdout, 'in\n', 'a root of / contains everything');
});

for (const tool of fullJsonTools().filter((candidate) => candidate.name === 'jq')) {
  t.test(`mcp_require_path with ${tool.name}`, { skip: tool.skip ?? false }, async (t) => {
    const box = sandbox(t);
    const dir = realpathSync(box.dir);
    const root = join(dir, 'root');
    mkdirSync(join(root, 'data'), { recursive: true });
    writeFileSync(join(root, 'data', 'f.txt'), '');
    const call = (args: unknown, roots: string[], flags = '') =>
      box.run(`mcp_require_path .path ${flags}`, { tool, args, roots });

    t.equal(
      (await call({ path: join(root, 'data', '..', 'data', 'f.txt') }, [root])).stdout,
      join(root, 'data', 'f.txt'),
    );
    t.equal((await call({}, [root], '--default-to-single-root')).stdout, root, 'the only root is the default');
    t.equal((await call({ path: null }, [], '--allow-empty')).stdout, '', '--allow-empty');
    t.equal((await call({ path: '/etc/passwd' }, [])).stdout, '/etc/passwd', 'zero roots accept any path');
    const failures: Array<[unknown, string[], string, string]> = [
      [{ path: '/etc/passwd' }, [root], '', '.path is outside configured MCP roots'],
      [{}, [root], '', '.path is required'],
      [{}, [root, dir], '--default-to-single-root', '.path is required when zero or multiple roots are configured'],
      [{}, [], '--default-to-single-root', '.path is required when zero or multiple roots are configured'],
    ];
    for (const [args, roots, flags, message] of failures) {
      const run = await call(args, roots, flags);
      t.equal(run.code, 1, message);
      t.same(JSON.parse(run.stdout), { code: -32602, message, data: null });
    }
    const noPointer = await box.run('mcp_require_path', { tool });
    t.same(JSON.parse(noPointer.stdout), {
      code: -32602,
      message: 'mcp_require_path: argument pointer is required',
      data: null,
    });
  });
}
