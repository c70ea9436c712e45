import { spawnSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import t from 'tap';
import { cli, sharedCliEnv } from '../../helpers/cli-projects.js';
import { startServiceJq } from '../../helpers/jq-service-harness.js';
import { scratchDir } from '../../helpers/scratch.js';
import { builtinJqWrapper, runBash, type SdkRunResult, sdkDir, sh } from '../../helpers/sdk-harness.js';

const dir = scratchDir('mcpbash-jq-test-');
// Through the same wrapper the SDK tests use (`<binary> jq "$@"` with one HOME, so the
// framework files are extracted once, and without the test runner's NODE_OPTIONS, which
// would instrument and slow down every node process it starts).
const wrapper = builtinJqWrapper();
// The warm service tools use on hosts without jq, with `false` as its fallback: every call
// that passes below was answered by the service itself.
const service = wrapper ? await startServiceJq('false') : undefined;
t.teardown(() => service?.close());

type Jq = (args: string[], input?: string) => Promise<SdkRunResult>;
const runnerFor =
  (command: string): Jq =>
  (args, input = '') => {
    const file = join(dir, `stdin-${Math.random().toString(36).slice(2)}`);
    writeFileSync(file, input);
    return runBash(`exec ${sh(command)} ${args.map(sh).join(' ')} < ${sh(file)}`, { PATH: process.env.PATH });
  };
const systemJq = spawnSync('jq', ['--version']).error ? undefined : 'jq';
const skip = wrapper && service ? false : 'dist/mcp-bash.cjs is not built (node build.mjs --no-binary)';
const routes: ReadonlyArray<[string, Jq]> =
  wrapper && service
    ? [
        ['mcp-bash jq', runnerFor(wrapper)],
        ['the warm jq service', runnerFor(service.wrapper)],
      ]
    : [];

for (const [route, jq] of routes) {
  t.test(`${route}: filters stdin like jq, keeping every byte of raw output`, { skip }, async (t) => {
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

  t.test(`${route}: options: -n -s -R -a -S -c --arg --argjson --args --jsonargs`, { skip }, async (t) => {
    t.equal((await jq(['-s', '-c', '.'], '1 2 3')).stdout, '[1,2,3]\n');
    t.equal((await jq(['-R', '.'], 'a\nb\n')).stdout, '"a"\n"b"\n');
    t.equal((await jq(['-Rs', '.'], 'a\nb\n')).stdout, '"a\\nb\\n"\n');
    t.equal((await jq(['-a', '-n', '"é✓"'])).stdout, '"\\u00e9\\u2713"\n');
    t.equal((await jq(['-S', '-c', '-n', '{"b":1,"a":{"d":1,"c":2}}'])).stdout, '{"a":{"c":2,"d":1},"b":1}\n');
    t.equal(
      (await jq(['-nc', '--arg', 'x', '5', '--argjson', 'y', '{"z":[1]}', '[$x,$y]'])).stdout,
      '["5",{"z":[1]}]\n',
    );
    t.equal((await jq(['-nc', '$ARGS', '--args', 'a', 'b c'])).stdout, '{"positional":["a","b c"],"named":{}}\n');
    t.equal((await jq(['-nc', '$ARGS.positional', '--jsonargs', '1', '{"k":true}'])).stdout, '[1,{"k":true}]\n');
    t.equal((await jq(['-n', 'input'], '7')).stdout, '7\n', '-n still reads stdin for input');
    t.equal((await jq(['-nr', '"é" | utf8bytelength'])).stdout, '2\n');
  });

  t.test(`${route}: files: input files, -f, --slurpfile, --rawfile`, { skip }, async (t) => {
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

  t.test(`${route}: exit statuses and errors on stderr`, { skip }, async (t) => {
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
    const stopped = await jq(['-n', '"oops" | halt_error']);
    t.same([stopped.code, stopped.stdout, stopped.stderr], [5, '', 'oops'], 'stderr without a final newline');
  });

  t.test(`${route}: exact bytes: NUL, long output, and stdin left alone with -n`, { skip }, async (t) => {
    t.equal((await jq(['-j', '-n', '"a\\u0000b"'])).stdout, 'a\u0000b');
    const long = await jq(['-c', '-n', '[range(3000)]']);
    t.equal(long.stdout, `${JSON.stringify(Array.from({ length: 3000 }, (_, i) => i))}\n`);
    const file = join(dir, 'rest.txt');
    writeFileSync(file, 'rest of stdin\n');
    const command = route === 'mcp-bash jq' ? wrapper : service?.wrapper;
    const shared = await runBash(`{ ${sh(command ?? 'false')} -n 1; cat; } < ${sh(file)}`, { PATH: process.env.PATH });
    t.equal(shared.stdout, '1\nrest of stdin\n', "jq -n does not consume the caller's stdin");
  });

  t.test(
    `${route}: agrees with the system jq on typical SDK filters`,
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

  t.test(`${route}: handles a large input`, { skip }, async (t) => {
    const big = JSON.stringify(Array.from({ length: 20000 }, (_, index) => ({ index, text: `item ${index}` })));
    const run = await jq(['length'], big);
    t.equal(run.stdout, '20000\n');
  });
}

t.test('mcp-bash jq --help, and the per-call jq when the service is gone', { skip }, async (t) => {
  const help = await runnerFor(wrapper ?? 'false')(['--help']);
  t.match(help.stdout, /Usage: mcp-bash jq/);
  const client = join(sdkDir, 'lib', 'jq-service.sh');
  const viaService = (address: string, args: string) =>
    runBash(`. ${sh(client)}; printf '{"a":[1]}' | _mcp_jq_service ${args}`, {
      PATH: process.env.PATH,
      MCPBASH_JQ_SERVICE: address,
      MCPBASH_JSON_TOOL_BIN: wrapper,
    });
  const served = await viaService(service?.address ?? '', '--help');
  t.match(served.stdout, /Usage: mcp-bash jq/, 'the service hands --help back to mcp-bash jq');
  const wrongToken = await viaService(
    `${service?.address.split(':').slice(0, 2).join(':')}:${'0'.repeat(48)}`,
    '-c .a',
  );
  t.same([wrongToken.code, wrongToken.stdout], [0, '[1]\n'], 'a refused token: the same answer, per call');
  const closed = await viaService('127.0.0.1:1:token', '-c .a');
  t.same([closed.code, closed.stdout, closed.stderr], [0, '[1]\n', ''], 'nothing listening: the same answer, per call');
});

t.test('jq-service does not start without a token of 32 characters (MCPBASH_JQ_SERVICE_TOKEN, D226)', async (t) => {
  for (const token of [undefined, 'x'.repeat(31)]) {
    const env = sharedCliEnv(token === undefined ? {} : { MCPBASH_JQ_SERVICE_TOKEN: token });
    if (token === undefined) delete env.MCPBASH_JQ_SERVICE_TOKEN;
    // Given no stdin to wait on, a service that did start would print its port and end.
    const run = await cli(['jq-service'], env, undefined, '');
    t.equal(run.code, 2, `token ${token?.length ?? 'unset'}: exit 2`);
    t.equal(run.stdout, '', 'nothing listens');
    t.match(run.stderr, /MCPBASH_JQ_SERVICE_TOKEN must hold at least 32 characters/);
  }
});
