import { existsSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import t from 'tap';
import { fixtureProject } from '../../helpers/fixtures.js';
import { startInitialized } from '../../helpers/mcp-process.js';
import { toolEnv } from '../../helpers/run-binary.js';
import { scratchDir } from '../../helpers/scratch.js';

type Result = { content: Array<{ text: string }>; isError?: boolean; _meta?: Record<string, unknown> };

const traceEnv = (stateDir: string, extra: NodeJS.ProcessEnv = {}) =>
  toolEnv({ MCPBASH_TRACE_TOOLS: 'true', MCPBASH_STATE_DIR: stateDir, ...extra });

t.test('MCPBASH_TRACE_TOOLS: bash tools run under xtrace into a per-call file in the state dir', async (t) => {
  const stateDir = scratchDir('mcpbash-trace-state-');
  const server = await startInitialized({ projectRoot: fixtureProject('tools'), env: traceEnv(stateDir) });
  t.teardown(() => server.close());
  const result = (await server.request('tools/call', { name: 'traced' })).result as Result;
  const [traceFile = '', done] = result.content[0]?.text.split('\n') ?? [];
  t.equal(done, 'done 17 9', 'the tool itself behaves as usual');
  t.ok(traceFile.startsWith(`${stateDir}/`), `MCPBASH_TRACE_FILE (${traceFile}) is under MCPBASH_STATE_DIR`);
  t.equal(statSync(traceFile).mode & 0o077, 0, 'only the server user can read it');
  const trace = readFileSync(traceFile, 'utf8');
  t.match(trace, /^\+ tool\.sh:5: API_TOKEN=/m, 'the default PS4 names file and line');
  t.match(trace, /^\+ tool\.sh:\d+: printf 'done %s %s\\n' 17 9$/m, 'the last command is there');
  t.notMatch(trace, /supersecret|two words/, 'values of *TOKEN* / *PASSWORD* variables are redacted');
  t.match(trace, /API_TOKEN=\[REDACTED\]/);
  t.match(trace, /'DB_PASSWORD=\[REDACTED\]'/);
  t.notOk(result._meta?.traceLine, 'no trace line on success');

  const failed = (await server.request('tools/call', { name: 'traced', arguments: { fail: true } })).result as Result;
  t.equal(failed.isError, true);
  t.match(
    failed._meta,
    { exitCode: 3, traceLine: /^\+ tool\.sh:\d+: exit 3$/ },
    'a failure carries the last trace line',
  );

  const noexec = (await server.request('tools/call', { name: 'noexec' })).result as Result;
  t.match(
    noexec.content[0]?.text,
    /^ran via bash \d+$/,
    'a script run through bash is traced too, its stdout untouched',
  );
  const traces = readdirSync(join(stateDir, 'traces'));
  const noexecTrace = traces.find((name) => name.startsWith('noexec.'));
  t.ok(noexecTrace, `a trace for noexec is kept (${traces.join(', ')})`);
  t.match(readFileSync(join(stateDir, 'traces', noexecTrace ?? ''), 'utf8'), /^\+ tool\.sh:3: printf/m);
});

t.test('MCPBASH_TRACE_PS4 and MCPBASH_TRACE_MAX_BYTES', async (t) => {
  const stateDir = scratchDir('mcpbash-trace-state-');
  const server = await startInitialized({
    projectRoot: fixtureProject('tools'),
    env: traceEnv(stateDir, { MCPBASH_TRACE_PS4: 'TRACE ${LINENO}> ', MCPBASH_TRACE_MAX_BYTES: '600' }),
  });
  t.teardown(() => server.close());
  const result = (await server.request('tools/call', { name: 'traced', arguments: { loop: 200 } })).result as Result;
  const traceFile = result.content[0]?.text.split('\n')[0] ?? '';
  const trace = readFileSync(traceFile, 'utf8');
  t.ok(Buffer.byteLength(trace) <= 600, `trimmed to the last 600 bytes (${Buffer.byteLength(trace)})`);
  t.match(trace, /^TRACE \d+> /, 'starts at a whole line, with the custom PS4');
  t.match(trace, /TRACE \d+> printf 'done %s %s\\n' 17 9\n$/, 'the end is kept');
});

t.test('a traced tool still reads a BASH_ENV of its own (MCPBASH_TRACE_BASH_ENV carries it)', async (t) => {
  const stateDir = scratchDir('mcpbash-trace-state-');
  const ownBashEnv = join(scratchDir('mcpbash-trace-bashenv-'), 'env.sh');
  writeFileSync(ownBashEnv, 'export FROM_OWN_BASH_ENV=1\n');
  const server = await startInitialized({
    projectRoot: fixtureProject('tools'),
    env: traceEnv(stateDir, {
      MCPBASH_TOOL_ENV_MODE: 'allowlist',
      MCPBASH_TOOL_ENV_ALLOWLIST: 'BASH_ENV',
      BASH_ENV: ownBashEnv,
    }),
  });
  t.teardown(() => server.close());
  const result = (await server.request('tools/call', { name: 'env-dump' })).result as Result;
  const names = result.content[0]?.text.split('\n') ?? [];
  t.ok(names.includes('FROM_OWN_BASH_ENV'), "the tool's own BASH_ENV file was read");
  t.ok(names.includes('BASH_ENV'), "and BASH_ENV is the tool's again");
  t.notOk(names.includes('MCPBASH_TRACE_BASH_ENV'), 'the hand-over variable is gone');
  const trace = readdirSync(join(stateDir, 'traces')).find((name) => name.startsWith('env-dump.'));
  t.match(readFileSync(join(stateDir, 'traces', trace ?? ''), 'utf8'), /^\+ tool\.sh:\d+: env$/m, 'and it is traced');
});

t.test("MCPBASH_TRACE_BASH_ENV in the server's own environment does not reach a traced tool", async (t) => {
  const stateDir = scratchDir('mcpbash-trace-state-');
  const stray = join(scratchDir('mcpbash-trace-bashenv-'), 'stray.sh');
  writeFileSync(stray, 'export FROM_STRAY_BASH_ENV=1\n');
  const server = await startInitialized({
    projectRoot: fixtureProject('tools'),
    env: traceEnv(stateDir, { MCPBASH_TRACE_BASH_ENV: stray }),
  });
  t.teardown(() => server.close());
  const result = (await server.request('tools/call', { name: 'env-dump' })).result as Result;
  const names = result.content[0]?.text.split('\n') ?? [];
  t.ok(names.length > 3, 'the tool listed its environment');
  t.notOk(names.includes('FROM_STRAY_BASH_ENV'), 'the file it names was not read');
  t.notOk(names.includes('MCPBASH_TRACE_BASH_ENV'), 'nor is the variable passed on');
  t.notOk(names.includes('BASH_ENV'), 'and the tool has no BASH_ENV');
});

t.test('without MCPBASH_TRACE_TOOLS nothing is traced', async (t) => {
  const stateDir = scratchDir('mcpbash-trace-state-');
  const server = await startInitialized({
    projectRoot: fixtureProject('tools'),
    env: toolEnv({ MCPBASH_STATE_DIR: stateDir }),
  });
  t.teardown(() => server.close());
  const result = (await server.request('tools/call', { name: 'traced', arguments: { fail: true } })).result as Result;
  t.match(result.content[0]?.text, /^Tool 'traced' failed with exit status 3/);
  t.notOk(result._meta?.traceLine);
  t.notOk(existsSync(join(stateDir, 'traces')));
});
