import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import t from 'tap';
import { parseJqCommandLine, readsInput } from '../../../src/json/jq-argv.js';
import {
  type JqHandle,
  loadJqEngine,
  locateJqWasm,
  patchLoaderSource,
  reusedEngine,
} from '../../../src/json/jq-wasm.js';
import { repoRoot } from '../../helpers/paths.js';

const args = (argv: string[]) =>
  parseJqCommandLine(argv).items.map((item) => (item.kind === 'arg' ? item.value : item.use));

t.test('parseJqCommandLine separates input files from jq arguments', async (t) => {
  const line = parseJqCommandLine(['-r', '--arg', 'a', 'b', '.x', 'in1.json', 'in2.json']);
  t.same(line.inputFiles, ['in1.json', 'in2.json']);
  t.same(args(['-r', '--arg', 'a', 'b', '.x', 'in1.json']), ['-r', '--arg', 'a', 'b', '.x']);
  t.equal(line.program, '.x');
  t.same(
    parseJqCommandLine(['-n', '.', '--args', 'p1', '-c', 'p2']).inputFiles,
    [],
    'after --args positionals are values',
  );
  t.same(args(['-n', '.', '--args', 'p1', '-c', 'p2']), ['-n', '.', '--args', 'p1', '-c', 'p2']);
  t.same(args(['--', '-1']), ['--', '-1'], 'after -- a filter may start with a dash');
  t.same(args(['--indent', '3', '.']), ['--indent', '3', '.']);
  t.same(args(['-L', 'lib', '.']), ['-L', 'lib', '.']);
  t.same(args(['-nLlib', '.']), ['-nLlib', '.']);
});

t.test('file-reading options become file uses', async (t) => {
  t.same(args(['-f', 'prog.jq', 'data.json']), [{ kind: 'program', path: 'prog.jq' }]);
  t.same(parseJqCommandLine(['-nrf', 'prog.jq']).items, [
    { kind: 'arg', value: '-nr' },
    { kind: 'file', use: { kind: 'program', path: 'prog.jq' } },
  ]);
  t.same(args(['--from-file', 'p.jq']), [{ kind: 'program', path: 'p.jq' }]);
  t.same(args(['--slurpfile', 's', 'f.json', '--rawfile', 'r', 'f.txt', '.']), [
    { kind: 'slurpfile', name: 's', path: 'f.json' },
    { kind: 'rawfile', name: 'r', path: 'f.txt' },
    '.',
  ]);
});

t.test('readsInput: stdin is read unless -n, or -n with input/inputs', async (t) => {
  t.equal(readsInput(parseJqCommandLine(['.'])), true);
  t.equal(readsInput(parseJqCommandLine(['-n', '1'])), false);
  t.equal(readsInput(parseJqCommandLine(['-cn', '[inputs]'])), true);
  t.equal(readsInput(parseJqCommandLine(['--null-input', 'input'])), true);
  t.equal(readsInput(parseJqCommandLine([])), false, 'no filter: jq prints its usage');
});

t.test('the pinned jq-wasm loader still has the code the patches expect', async (t) => {
  const files = locateJqWasm(repoRoot);
  t.ok(files, 'found in node_modules');
  if (!files) return;
  const patched = patchLoaderSource(readFileSync(files.loader, 'utf8'));
  t.notMatch(patched, /stdoutSink\.toString\(\)\.trim\(\)/);
  t.throws(() => patchLoaderSource('module.exports = {}'), /unexpected jq-wasm loader/);
  const engine = await loadJqEngine(files);
  t.same(await engine.run(['-r', '.'], '"  x  "'), { stdout: '  x  \n', stderr: '', exitCode: 0 });
  t.same(await engine.run(['-n', '$ARGS.positional', '-c', '--args', 'a'], ''), {
    stdout: '["a"]\n',
    stderr: '',
    exitCode: 0,
  });
  t.equal((await engine.run(['.'], '{')).exitCode, 5, 'jq 1.8 exits 5 on unparsable input');
});

t.test('a reused engine never hands one run the input another run left unread', async (t) => {
  const files = locateJqWasm(repoRoot);
  if (!files) return t.fail('jq-wasm not found');
  const engine = await loadJqEngine(files, { oneShot: false });
  // Programs that stop reading early, then an ordinary run that must see only its own input.
  const leavers: Array<[string[], string]> = [
    [['-c', '.'], '{"a":1}\nnot json\n{"left":"parse error"}'],
    [['-c', '-n', 'first(inputs)'], '{"x":1}\n{"left":"first"}'],
    [['-c', 'halt_error'], '"boom"\n{"left":"halt_error"}'],
    [['-c', '-n', 'input'], '1 {"left":"input"}'],
    [['-c', '.'], 'plain text'],
    // Two parse errors: reading the rest once does not empty it (the instance is replaced).
    [['-c', '.'], '{"a":1}\nbad\n{"b":2}\nbad2\n{"left":"second error"}'],
  ];
  for (const [argv, input] of leavers) {
    await engine.run(argv, input);
    t.same(
      await engine.run(['-c', '.name'], '{"name":"Ada"}'),
      { stdout: '"Ada"\n', stderr: '', exitCode: 0 },
      `after jq ${argv.join(' ')}: only its own input`,
    );
  }
  // Two runs waiting together while the instance is replaced both get a clean one.
  const [first, second, third] = await Promise.all([
    engine.run(['-c', '-n', 'first(inputs)'], '1 {"left":"concurrent"}'),
    engine.run(['-c', '.'], '2'),
    engine.run(['-c', '.'], '3'),
  ]);
  t.same([first.stdout, second.stdout, third.stdout], ['1\n', '2\n', '3\n'], 'concurrent runs stay apart');
  // A program that makes the module abort (unbounded recursion) throws; the next run gets a fresh instance.
  await t.rejects(engine.run(['-c', '-n', 'input, (def f: [f]; f)'], '1 {"left":"abort"}'));
  t.same(
    await engine.run(['-c', '.n'], '{"n":0}'),
    { stdout: '0\n', stderr: '', exitCode: 0 },
    'after an abort: only its own input',
  );
});

t.test('a reused engine probes after the runs that may leave input, and only those', async (t) => {
  let probes = 0;
  const handle: JqHandle = {
    raw: (input, _query, flags) => {
      if (input === '' && flags.join(' ') === '-c .') probes += 1;
      return { stdout: '', stderr: '', exitCode: input === 'fails' ? 5 : 0 };
    },
  };
  const engine = reusedEngine(async () => handle);
  const probed = async (argv: string[], input = '{}') => {
    const before = probes;
    await engine.run(argv, input);
    return probes > before;
  };
  for (const argv of [['-c', '.name'], ['-r', '.a // "x"'], ['-e', '--arg', 'k', 'v', '.[$k]'], ['-S', '.'], ['.']]) {
    t.notOk(await probed(argv), `jq ${argv.join(' ')} read all of its input: no probe`);
  }
  const leavers = [
    ['-n', 'input'],
    ['-cn', 'first(inputs)'],
    ['--null-input', '[inputs]'],
    ['-c', 'halt_error'],
    ['-f', 'prog.jq'],
    ['--from-file', 'prog.jq'],
    ['-L', 'lib', 'import "m" as m; m::f'],
    ['include "m"; f'],
  ];
  for (const argv of leavers) t.ok(await probed(argv), `jq ${argv.join(' ')}: probed`);
  t.ok(await probed(['-c', '.'], 'fails'), 'a run that failed: probed');
});

t.test('locateJqWasm prefers an extracted home', async (t) => {
  const home = t.testdir({ lib: { 'jq-wasm': { 'index.cjs': '', 'jq.wasm': '' } } });
  t.same(locateJqWasm(home), {
    loader: join(home, 'lib', 'jq-wasm', 'index.cjs'),
    wasm: join(home, 'lib', 'jq-wasm', 'jq.wasm'),
  });
  t.equal(locateJqWasm(t.testdir({})), null);
});

t.test('a reused engine whose instance fails to start reports it, and the next run tries again', async (t) => {
  const unhandled: unknown[] = [];
  const onUnhandled = (reason: unknown) => unhandled.push(reason);
  process.on('unhandledRejection', onUnhandled);
  t.teardown(() => process.off('unhandledRejection', onUnhandled));
  const clean: JqHandle = { raw: (input) => ({ stdout: input === '' ? '' : `${input}\n`, stderr: '', exitCode: 0 }) };
  /** An engine whose first instance fails to start. */
  const failingFirst = () => {
    let attempts = 0;
    return reusedEngine(async () => {
      attempts += 1;
      if (attempts === 1) throw new Error('out of memory');
      return clean;
    });
  };
  const waiting = failingFirst();
  await t.rejects(waiting.run(['.'], '1'), /out of memory/, 'a run waiting on the instance sees its failure');
  t.same(await waiting.run(['.'], '2'), { stdout: '2\n', stderr: '', exitCode: 0 }, 'the next run starts a new one');
  const idle = failingFirst();
  // Nothing awaits its first instance: the failure must not be an unhandled rejection.
  await new Promise((resolve) => setImmediate(resolve));
  t.same(await idle.run(['.'], '3'), { stdout: '3\n', stderr: '', exitCode: 0 }, 'its first run starts a new one');
  t.same(unhandled, [], 'no unhandled rejection');
});
