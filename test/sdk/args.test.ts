import { mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import t from 'tap';
import { fullJsonTools, jsonTools, sandbox } from '../helpers/sdk-harness.js';

const args = {
  name: 'World',
  nested: { field: 'deep' },
  flag: 1,
  no: false,
  n: 42,
  neg: '-7',
  bad: '4x',
  text: '  padded  ',
  list: [1, 2],
  // Strings: JavaScript cannot write these as exact JSON numbers.
  top: '9223372036854775807',
  bottom: '-9223372036854775808',
  over: '9223372036854775808',
  huge: '0099999999999999999999',
};

for (const tool of fullJsonTools()) {
  t.test(`argument helpers with ${tool.name}`, { skip: tool.skip ?? false }, async (t) => {
    const box = sandbox(t);

    t.test('mcp_args_raw prints the arguments; the file wins over the variable', async (t) => {
      const inline = await box.run('mcp_args_raw', { tool, args });
      t.same(JSON.parse(inline.stdout), args);
      const none = await box.run('mcp_args_raw', { tool, env: { MCP_TOOL_ARGS_JSON: '' } });
      t.equal(none.stdout, '{}', 'defaults to {}');
      const spilled = await box.run('mcp_args_raw; printf "|"; mcp_args_get .name', {
        tool,
        args: { name: 'from-file' },
        argsInFile: true,
      });
      t.equal(
        spilled.stdout,
        '{"name":"from-file"}|from-file',
        'MCP_TOOL_ARGS_FILE is read when the variable is empty',
      );
    });

    t.test('mcp_args_get prints raw strings and compact JSON, null for missing keys', async (t) => {
      const run = await box.run(
        `for f in .name .nested.field .nested .list .missing '.missing // "dflt"' .text; do printf '[%s]' ` +
          `"$(mcp_args_get "$f")"; done`,
        { tool, args },
      );
      t.equal(run.code, 0, run.stderr);
      t.equal(run.stdout, '[World][deep][{"field":"deep"}][[1,2]][null][dflt][  padded  ]');
    });

    t.test("mcp_args_get reports a jq error with a warning and jq's status", async (t) => {
      const run = await box.run('out="$(mcp_args_get ".[")" && rc=0 || rc=$?; printf "%s|%s" "$rc" "$out"', {
        tool,
        args,
      });
      t.not(run.stdout.split('|')[0], '0', 'non-zero status');
      t.equal(run.stdout.split('|')[1], '', 'no output');
      t.match(run.stderr, /mcp_args_get: jq error \(rc=\d+\) filter=\.\[/);
    });

    t.test('mcp_meta_raw and mcp_meta_get read the request _meta', async (t) => {
      const run = await box.run('mcp_meta_raw; printf "|"; mcp_meta_get .auth.user', {
        tool,
        meta: { auth: { user: 'ann' } },
      });
      t.equal(run.stdout, '{"auth":{"user":"ann"}}|ann');
      const empty = await box.run('mcp_meta_raw', { tool, env: { MCP_TOOL_META_JSON: undefined } });
      t.equal(empty.stdout, '{}');
    });

    t.test('mcp_args_require returns the value or fails with -32602', async (t) => {
      const ok = await box.run('mcp_args_require .name', { tool, args });
      t.equal(ok.stdout, 'World');
      const missing = await box.run('v="$(mcp_args_require .missing)"; echo unreachable', { tool, args });
      t.equal(missing.code, 1);
      t.same(JSON.parse(readFileSync(box.files.error, 'utf8')), {
        code: -32602,
        message: '.missing is required',
        data: null,
      });
      const custom = await box.run('mcp_args_require .missing "give me a target"', { tool, args });
      t.equal(custom.code, 1);
      t.same(JSON.parse(custom.stdout), { code: -32602, message: 'give me a target', data: null });
      t.match(custom.stderr, /give me a target/);
    });

    t.test('mcp_args_bool coerces true/1 and applies defaults', async (t) => {
      const run = await box.run(
        `printf '%s,' "$(mcp_args_bool .flag)" "$(mcp_args_bool .no)" "$(mcp_args_bool .name)" ` +
          `"$(mcp_args_bool .missing --default true)" "$(mcp_args_bool .missing --default 0)"`,
        { tool, args },
      );
      t.equal(run.stdout, 'true,false,false,true,false,');
      const required = await box.run('mcp_args_bool .missing', { tool, args });
      t.equal(required.code, 1);
      t.same(JSON.parse(required.stdout), { code: -32602, message: '.missing is required', data: null });
    });

    t.test('mcp_args_int validates integers and ranges', async (t) => {
      const ok = await box.run(
        `printf '%s,' "$(mcp_args_int .n --min 1 --max 100)" "$(mcp_args_int .neg)" "$(mcp_args_int .missing ` +
          `--default 10)"`,
        { tool, args },
      );
      t.equal(ok.stdout, '42,-7,10,');
      const edges = await box.run('printf "%s," "$(mcp_args_int .top)" "$(mcp_args_int .bottom --max 0)"', {
        tool,
        args,
      });
      t.equal(edges.stdout, '9223372036854775807,-9223372036854775808,', 'the 64-bit limits themselves fit');
      const failures: Array<[string, string]> = [
        ['mcp_args_int .bad', '.bad must be an integer'],
        ['mcp_args_int .n --min 50', '.n must be >= 50'],
        ['mcp_args_int .n --max 10', '.n must be <= 10'],
        ['mcp_args_int .n --min 5 --max 1', 'mcp_args_int: --min cannot exceed --max'],
        ['mcp_args_int .missing', '.missing is required'],
        ['mcp_args_int .name --default 3', '.name must be an integer'],
        ['mcp_args_int .n --min abc', 'mcp_args_int: --min must be an integer'],
        ['mcp_args_int .n --max 1.5', 'mcp_args_int: --max must be an integer'],
        ['mcp_args_int .n --min 1 --max ""', 'mcp_args_int: --max must be an integer'],
        ['mcp_args_int .n --min', 'mcp_args_int: --min must be an integer'],
        ['mcp_args_int .over', '.over is out of range (a 64-bit integer)'],
        ['mcp_args_int .huge --min 1 --max 200', '.huge is out of range (a 64-bit integer)'],
      ];
      for (const [script, message] of failures) {
        const run = await box.run(script, { tool, args });
        t.equal(run.code, 1, script);
        t.same(JSON.parse(run.stdout), { code: -32602, message, data: null }, script);
      }
    });

    t.test('payloads never reach an xtrace log', async (t) => {
      const secret = { token: 'TOP-SECRET-VALUE' };
      const run = await box.run(
        'set -x; mcp_args_raw >/dev/null; mcp_args_get .token >/dev/null; mcp_meta_raw >/dev/null; set +x',
        {
          tool,
          args: secret,
          meta: secret,
        },
      );
      t.equal(run.code, 0);
      t.notMatch(run.stderr, /TOP-SECRET-VALUE/);
      t.match(run.stderr, /mcp_args_raw/, 'the trace itself is there');
    });

    t.test('the typed readers keep values out of xtrace, and restore it even when they fail', async (t) => {
      const secretDir = join(box.dir, 'hunter2');
      mkdirSync(secretDir, { recursive: true });
      const values = { pw: 'hunter2', n: 987654321, flag: 'hunter2', path: secretDir };
      // Each failure runs in a subshell whose EXIT trap is traced only if xtrace was restored.
      const failing = (name: string, call: string) =>
        `( trap ': ${name}-exit-traced' EXIT; ${call} >/dev/null 2>&1 ) || :`;
      const run = await box.run(
        [
          'set -x',
          'mcp_args_require .pw >/dev/null; : after-require',
          'mcp_args_bool .flag >/dev/null; : after-bool',
          'mcp_args_int .n --min 1 >/dev/null; : after-int',
          'mcp_require_path .path >/dev/null; : after-path',
          'mcp_require_path .missing --allow-empty >/dev/null; : after-empty-path',
          failing('require', 'mcp_args_require .missing'),
          failing('bool', 'mcp_args_bool .missing'),
          failing('int', 'mcp_args_int .pw'),
          failing('int-range', 'mcp_args_int .n --max 5'),
          'set +x',
        ].join('\n'),
        { tool, args: values },
      );
      t.equal(run.code, 0, run.stderr);
      t.notMatch(run.stderr, /hunter2|987654321/, 'no argument value in the trace');
      for (const marker of ['after-require', 'after-bool', 'after-int', 'after-path', 'after-empty-path']) {
        t.match(run.stderr, new RegExp(`: ${marker}\n`), `xtrace is back on after ${marker.slice(6)}`);
      }
      for (const name of ['require', 'bool', 'int', 'int-range']) {
        t.match(run.stderr, new RegExp(`: ${name}-exit-traced`), `xtrace is restored before the ${name} failure exits`);
      }
      const outside = await box.run(`set -x; ${failing('path', 'mcp_require_path .path')}; set +x`, {
        tool,
        args: values,
        roots: [join(box.dir, 'elsewhere')],
      });
      t.notMatch(outside.stderr, /hunter2/, 'mcp_require_path outside the roots');
      t.match(outside.stderr, /: path-exit-traced/);
      t.same(JSON.parse(readFileSync(box.files.error, 'utf8')), {
        code: -32602,
        message: '.path is outside configured MCP roots',
        data: null,
      });
    });
  });
}

t.test('argument helpers in minimal mode', async (t) => {
  const box = sandbox(t);
  const tool = jsonTools().find((candidate) => candidate.name === 'minimal');
  const raw = await box.run('mcp_args_raw', { tool, args: { a: 1 } });
  t.equal(raw.stdout, '{"a":1}', 'mcp_args_raw works without jq');
  const get = await box.run('out="$(mcp_args_get .a)" && rc=0 || rc=$?; printf "%s|%s" "$rc" "$out"', {
    tool,
    args: { a: 1 },
  });
  t.equal(get.stdout, '1|');
  t.match(get.stderr, /mcp_args_get: JSON tooling unavailable; use mcp_args_raw instead/);
  const meta = await box.run('mcp_meta_get .a', { tool });
  t.equal(meta.code, 1);
  t.match(meta.stderr, /mcp_meta_get: JSON tooling unavailable; use mcp_meta_raw instead/);
  const bool = await box.run('printf "%s" "$(mcp_args_bool .x --default 1)"; mcp_args_bool .x', { tool });
  t.equal(bool.code, 1);
  t.match(bool.stdout, /^true\{"code":-32602,"message":"\.x requires JSON tooling or a default","data":null\}/);
  const int = await box.run('printf "%s" "$(mcp_args_int .x --default 7 --max 9)"; mcp_args_int .x', { tool });
  t.equal(int.code, 1);
  t.match(int.stdout, /^7\{"code":-32602,"message":"\.x requires JSON tooling or a default"/);
  const require = await box.run('mcp_args_require .a', { tool, args: { a: 1 } });
  t.equal(require.code, 1, 'cannot read, so it fails');
  t.same(JSON.parse(require.stdout), { code: -32602, message: '.a is required', data: null });
});
