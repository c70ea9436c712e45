import { existsSync, readFileSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import t from 'tap';
import { jsonTools, sandbox, sh } from '../helpers/sdk-harness.js';

const jq = jsonTools().find((tool) => tool.name === 'jq');
type Progress = { params: { progress: number; message: string; total: unknown } };
/** The stream exists and its mtime is not the epoch a test reset it to. */
const touched = (path: string) => existsSync(path) && statSync(path).mtimeMs > 0;

t.test('mcp_run_with_progress', { skip: jq?.skip ?? false }, async (t) => {
  const tool = jq;

  t.test('json extraction forwards progress and keeps stdout and the exit status', async (t) => {
    const box = sandbox(t);
    const script = `
      cmd() {
        printf '{"progress": 10, "message": "start"}\\n' >&2
        printf 'plain stderr line\\n' >&2
        sleep 0.3
        printf '{"progress": 55.7}\\n{"type":"step"}\\n' >&2
        printf 'RESULT\\n'
        return 3
      }
      mcp_run_with_progress --pattern '^\\{' --interval 0.05 --stderr-file ${sh(join(box.dir, 'rest.txt'))} -- cmd \\
        && rc=0 || rc=$?
      echo "rc=$rc"`;
    const run = await box.run(script, { tool, progressToken: 'p' });
    t.equal(run.stdout, 'RESULT\nrc=3\n');
    const progress = box.lines('progress') as Progress[];
    t.same(
      progress.map((line) => [line.params.progress, line.params.message]),
      [
        [10, 'start'],
        [55, 'Working...'],
      ],
    );
    t.equal(
      readFileSync(join(box.dir, 'rest.txt'), 'utf8'),
      'plain stderr line\n',
      'non-progress lines go to --stderr-file',
    );
    t.notMatch(box.read('log'), /plain stderr line/, 'and not also to the debug log');
  });

  t.test('without --stderr-file non-progress lines go to the debug log', async (t) => {
    const box = sandbox(t);
    const run = await box.run(
      `mcp_run_with_progress --pattern '^\\{' --interval 0.05 -- bash -c 'echo "{\\"progress\\":5}" >&2; echo ` +
        `"plain line" >&2'`,
      { tool, progressToken: 'p' },
    );
    t.equal(run.code, 0, run.stderr);
    t.match(box.read('log'), /subprocess output: plain line/);
    t.equal(box.lines('progress').length, 1);
  });

  t.test("with --progress-file and --stderr-file the command's stderr goes to the file only", async (t) => {
    const box = sandbox(t);
    const progressFile = join(box.dir, 'progress.txt');
    const rest = join(box.dir, 'rest.txt');
    const run = await box.run(
      `mcp_run_with_progress --progress-file ${sh(progressFile)} --stderr-file ${sh(rest)} --pattern ` +
        `'pct=([0-9]+)' --extract match1 --interval 0.05 -- bash -c 'echo pct=40 >> ${progressFile}; echo oops ` +
        `>&2'`,
      { tool, progressToken: 'p' },
    );
    t.equal(run.code, 0, run.stderr);
    t.equal(readFileSync(rest, 'utf8'), 'oops\n');
    t.notMatch(box.read('log'), /oops/);
  });

  t.test('match1 and ratio extraction, --total, --stdout and --quiet', async (t) => {
    const box = sandbox(t);
    const out = join(box.dir, 'out.txt');
    const run = await box.run(
      `mcp_run_with_progress --pattern '([0-9]+)%' --extract match1 --interval 0.05 --quiet \\
         -- bash -c 'echo "25% done" >&2; echo noise >&2; echo "done 100%" >&2'
       mcp_run_with_progress --pattern '\\[([0-9]+)/([0-9]+)\\]' --extract ratio --interval 0.05 --stdout ${sh(out)} \\
         -- bash -c 'echo "[3/4] files" >&2; echo body'
       mcp_run_with_progress --pattern 'us=([0-9]+)' --extract match1 --total 200 --interval 0.05 \\
         -- bash -c 'echo "us=50" >&2'`,
      { tool, progressToken: 'p' },
    );
    t.equal(run.code, 0, run.stderr);
    t.equal(readFileSync(out, 'utf8'), 'body\n');
    const progress = box.lines('progress') as Progress[];
    t.same(
      progress.map((line) => [line.params.progress, line.params.message]),
      [
        [25, '25% done'],
        [100, 'done 100%'],
        [75, '[3/4] files'],
        [25, 'us=50'],
      ],
    );
    t.notMatch(box.read('log'), /noise/, '--quiet keeps non-progress lines out of the log');
  });

  t.test('--progress-file is read instead of stderr; --dry-run prints instead of reporting', async (t) => {
    const box = sandbox(t);
    const progressFile = join(box.dir, 'progress.txt');
    writeFileSync(progressFile, 'stale\n');
    const run = await box.run(
      `mcp_run_with_progress --progress-file ${sh(progressFile)} --pattern 'pct=([0-9]+)' --extract match1 ` +
        `--interval 0.05 --dry-run -- bash -c 'echo pct=40 >> ${progressFile}; echo oops >&2'`,
      { tool, progressToken: 'p' },
    );
    t.equal(run.code, 0);
    t.match(run.stderr, /\{"progress":40,"message":"pct=40"\}/);
    t.equal(box.read('progress'), '', '--dry-run reports nothing');
    t.match(box.read('log'), /truncating non-empty progress file/);
    t.match(box.read('log'), /subprocess output: oops/, "the command's stderr goes to the debug log");
  });

  t.test('a match is timeout activity even without a progress token', async (t) => {
    const box = sandbox(t);
    t.notOk(existsSync(box.files.progress), 'the server creates no progress stream');
    await box.run(
      `mcp_run_with_progress --pattern 'tick' --extract match1 --interval 0.05 -- bash -c 'echo tick >&2'`,
      { tool },
    );
    t.ok(touched(box.files.progress), 'the progress stream was touched');
    t.equal(box.read('progress'), '', 'but nothing was written');
  });

  t.test('a match is timeout activity with a progress token even when nothing can be extracted', async (t) => {
    const box = sandbox(t);
    const cases: Array<[string, string]> = [
      [`--pattern '^\\{' --extract json`, `printf '{"type":"step_start"}\\n' >&2`],
      [`--pattern '^\\{' --extract json`, `printf '{"progress":"soon"}\\n' >&2`],
      [`--pattern 'step ([a-z]+)' --extract match1`, `echo 'step one' >&2`],
      [`--pattern '\\[([0-9]+)/([0-9]+)\\]' --extract ratio`, `echo '[1/0]' >&2`],
    ];
    for (const [options, command] of cases) {
      if (existsSync(box.files.progress)) utimesSync(box.files.progress, new Date(0), new Date(0));
      const run = await box.run(`mcp_run_with_progress ${options} --interval 0.05 -- bash -c ${sh(command)}`, {
        tool,
        progressToken: 'p',
      });
      t.equal(run.code, 0, run.stderr);
      t.ok(touched(box.files.progress), `the progress stream was touched: ${command}`);
      t.equal(box.read('progress'), '', 'no progress line was written');
    }
  });

  t.test('cancellation kills the command and returns 130', async (t) => {
    const box = sandbox(t);
    const started = Date.now();
    const run = await box.run(
      `( sleep 0.3; : > "$MCP_CANCEL_FILE" ) &
       mcp_run_with_progress --pattern x --extract match1 --interval 0.05 -- sleep 20 && rc=0 || rc=$?; echo "rc=$rc"`,
      { tool },
    );
    t.equal(run.stdout, 'rc=130\n');
    t.ok(Date.now() - started < 5000, 'returned promptly');
  });

  t.test('option errors return 1', async (t) => {
    const box = sandbox(t);
    const cases: Array<[string, RegExp]> = [
      ['-- true', /--pattern is required/],
      ['--pattern x --extract nope -- true', /unknown extract mode 'nope'/],
      ['--pattern x --total 0 -- true', /--total must be positive integer/],
      ['--pattern x --total abc -- true', /--total must be positive integer/],
      ['--pattern x --interval 0 -- true', /--interval must be a positive number/],
      ['--pattern x --', /a command is required/],
    ];
    for (const [args, message] of cases) {
      const run = await box.run(`mcp_run_with_progress ${args} && rc=0 || rc=$?; echo "rc=$rc"`, { tool });
      t.equal(run.stdout, 'rc=1\n', args);
      t.match(run.stderr, message);
    }
    const minimal = await box.run('mcp_run_with_progress --pattern x -- true && rc=0 || rc=$?; echo "rc=$rc"');
    t.equal(minimal.stdout, 'rc=1\n');
    t.match(minimal.stderr, /MCPBASH_JSON_TOOL_BIN required for json extraction mode/);
  });
});
