import { spawnSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import t from 'tap';
import { builtinJqWrapper, runBash, sh } from '../../helpers/sdk-harness.js';

const dir = mkdtempSync(join(tmpdir(), 'mcpbash-jq-test-'));
// Through the same wrapper the SDK tests use (`<binary> jq "$@"` with one HOME, so the
// framework files are extracted once, and without the test runner's NODE_OPTIONS, which
// would instrument and slow down every node process it starts).
const wrapper = builtinJqWrapper();
const jq = (args: string[], input = '') => {
  const file = join(dir, `stdin-${Math.random().toString(36).slice(2)}`);
  writeFileSync(file, input);
  return runBash(`exec ${sh(wrapper ?? 'false')} ${args.map(sh).join(' ')} < ${sh(file)}`, { PATH: process.env.PATH });
};
const systemJq = spawnSync('jq', ['--version']).error ? undefined : 'jq';
const skip = wrapper ? false : 'dist/mcp-bash.cjs is not built (node build.mjs --no-binary)';

t.test('filters stdin like jq, keeping every byte of raw output', { skip }, async (t) => {
  const run = await jq(['-r', '.a'], '{"a":"  padded\\t "}');
  t.equal(run.code, 0, run.stderr);
  t.equal(run.stdout, '  padded\t \n', 'leading/trailing whitespace and the newline are kept');
  const joined = await jq(['-j', '-n', '"a", 1, "b"']);
  t.equal(joined.stdout, 'a1b', '-j: no newlines');
  const pretty = await jq(['.'], '{"a":[1,{"b":null}]}');
  t.equal(pretty.stdout, '{\n  "a": [\n    1,\n    {\n      "b": null\n    }\n  ]\n}\n');
  const tab = await jq(['--tab', '.'], '{"a":1}');
  t.equal(tab.stdout, '{\n\t"a": 1\n}\n');
  const indent = await jq(['--indent', '1', '.'], '{"a":1}');
  t.equal(indent.stdout, '{\n "a": 1\n}\n');
  const multi = await jq(['-c', '.x'], '{"x":1}\n{"x":[2]}\n{"x":"3"}');
  t.equal(multi.stdout, '1\n[2]\n"3"\n', 'several inputs (NDJSON)');
});

t.test('options: -n -s -R -a -S -c --arg --argjson --args --jsonargs', { skip }, async (t) => {
  t.equal((await jq(['-s', '-c', '.'], '1 2 3')).stdout, '[1,2,3]\n');
  t.equal((await jq(['-R', '.'], 'a\nb\n')).stdout, '"a"\n"b"\n');
  t.equal((await jq(['-Rs', '.'], 'a\nb\n')).stdout, '"a\\nb\\n"\n');
  t.equal((await jq(['-a', '-n', '"é✓"'])).stdout, '"\\u00e9\\u2713"\n');
  t.equal((await jq(['-S', '-c', '-n', '{"b":1,"a":{"d":1,"c":2}}'])).stdout, '{"a":{"c":2,"d":1},"b":1}\n');
  t.equal((await jq(['-nc', '--arg', 'x', '5', '--argjson', 'y', '{"z":[1]}', '[$x,$y]'])).stdout, '["5",{"z":[1]}]\n');
  t.equal((await jq(['-nc', '$ARGS', '--args', 'a', 'b c'])).stdout, '{"positional":["a","b c"],"named":{}}\n');
  t.equal((await jq(['-nc', '$ARGS.positional', '--jsonargs', '1', '{"k":true}'])).stdout, '[1,{"k":true}]\n');
  t.equal((await jq(['-n', 'input'], '7')).stdout, '7\n', '-n still reads stdin for input');
  t.equal((await jq(['-nr', '"é" | utf8bytelength'])).stdout, '2\n');
});

t.test('files: input files, -f, --slurpfile, --rawfile', { skip }, async (t) => {
  const one = join(dir, 'one.json');
  const two = join(dir, 'two.json');
  const program = join(dir, 'prog.jq');
  const raw = join(dir, 'raw.txt');
  writeFileSync(one, '{"n":1}\n');
  writeFileSync(two, '{"n":2}\n{"n":3}');
  writeFileSync(program, '.n * 10\n');
  writeFileSync(raw, 'line1\nline2\n');
  t.equal((await jq(['-c', '.n', one, two])).stdout, '1\n2\n3\n');
  t.equal((await jq(['-f', program, one])).stdout, '10\n');
  t.equal(
    (await jq(['-nc', '--slurpfile', 's', two, '--rawfile', 'r', raw, '[$s, $r]'])).stdout,
    '[[{"n":2},{"n":3}],"line1\\nline2\\n"]\n',
  );
  const missing = await jq(['.n', one, join(dir, 'missing.json')]);
  t.equal(missing.code, 2, 'a missing file is exit 2, like jq');
  t.equal(missing.stdout, '1\n', 'the other files are still processed');
  t.match(missing.stderr, /Could not open .*missing\.json: No such file or directory/);
});

t.test('exit statuses and errors on stderr', { skip }, async (t) => {
  const cases: Array<[string[], string, number]> = [
    [['-e', '.'], 'null', 1],
    [['-e', '.'], 'false', 1],
    [['-e', '.'], '1', 0],
    [['-e', 'empty'], '1', 4],
    [['.'], '{', 5],
    [['bad syntax ('], '1', 3],
    [['-n', 'error("boom")'], '', 5],
    [['.a'], '[1]', 5],
    [['-n', '"x" | halt_error(7)'], '', 7],
  ];
  for (const [args, input, code] of cases) {
    const run = await jq(args, input);
    t.equal(run.code, code, `jq ${args.join(' ')} <<< ${input}`);
  }
  const error = await jq(['-n', 'error("boom")']);
  t.equal(error.stdout, '');
  t.match(error.stderr, /^jq: error \(at <unknown>\): boom\n$/);
  const compile = await jq(['bad syntax ('], '1');
  t.match(compile.stderr, /compile error/);
  const version = await jq(['--version']);
  t.equal(version.stdout, 'jq-1.8.2\n');
  const help = await jq(['--help']);
  t.match(help.stdout, /Usage: mcp-bash jq/);
});

t.test(
  'agrees with the system jq on typical SDK filters',
  { skip: skip || (systemJq ? false : 'jq is not installed') },
  async (t) => {
    const input = JSON.stringify({ name: 'x', list: [3, 1, 2], nested: { a: null, b: false }, text: 'é\u0001"' });
    const filters = [
      '-c .',
      '-r .name',
      '-c .list|sort',
      '-rc .nested',
      '-c [.[]|type]',
      '-r .text',
      '-c to_entries',
      '-e .nested.b',
      '-c -s length==1',
    ];
    for (const filter of filters) {
      const args = filter.split(' ');
      const ours = await jq(args, input);
      const theirs = spawnSync('jq', args, { input, encoding: 'utf8' });
      t.equal(ours.stdout, theirs.stdout, filter);
      t.equal(ours.code, theirs.status, `${filter} status`);
    }
  },
);

t.test('handles a large input', { skip }, async (t) => {
  const big = JSON.stringify(Array.from({ length: 20000 }, (_, index) => ({ index, text: `item ${index}` })));
  const run = await jq(['length'], big);
  t.equal(run.stdout, '20000\n');
});
