/** sdk/hook-helpers.sh: 1.x's helpers for project hooks, with each JSON tool and without one. */
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import t from 'tap';
import { jsonTools, sandbox, sdkDir } from '../helpers/sdk-harness.js';

const load = 'source "$MCP_SDK/hook-helpers.sh"; source "$MCP_SDK/hook-helpers.sh"';

for (const tool of jsonTools()) {
  t.test(`JSON helpers (${tool.name})`, { skip: tool.skip ?? false }, async (t) => {
    const box = sandbox(t);
    const file = join(box.dir, 'meta.json');
    writeFileSync(file, '{"a":{"b":[1,2]},"s":"x y"}');
    const run = await box.runPlain(
      `${load}
       printf '[%s]\\n' "$(mcp_json_extract_optional '{"a":{"b":[1,2]}}' -c '.a.b' fallback)"
       printf '[%s]\\n' "$(mcp_json_extract_optional 'not json' -r '.a' fallback hooks "policy input")"
       out="$(mcp_json_extract_file_required "${JSON.stringify(file).slice(1, -1)}" -r '.s' ctx)" \\
         && printf '[%s]\\n' "$out" || printf 'rc=%s\\n' "$?"
       mcp_json_extract_file_required /no/such/file -r . ctx || printf 'rc=%s\\n' "$?"
       printf '[%s]\\n' "$(mcp_json_escape_string 'say "hi"')" "$(mcp_json_quote_text $'a\\tb')" \\
         "$(mcp_json_trim $'  padded \\n')"
       mcp_json_has_key '{"k":1}' k && echo has-k || echo no-k
       mcp_json_has_key '[1]' k && echo has-k || echo no-k
       mcp_runtime_is_minimal_mode && echo minimal || echo full`,
      { tool },
    );
    t.equal(run.code, 0, run.stderr);
    if (tool.name === 'minimal') {
      t.equal(
        run.stdout,
        '[fallback]\n[fallback]\nrc=1\nrc=1\n["say \\"hi\\""]\n["a\\tb"]\n[padded]\nno-k\nno-k\nminimal\n',
      );
      t.match(run.stderr, /ctx: JSON tooling unavailable/);
    } else {
      t.equal(
        run.stdout,
        '[[1,2]]\n[fallback]\n[x y]\nrc=1\n["say \\"hi\\""]\n["a\\tb"]\n[padded]\nhas-k\nno-k\nfull\n',
      );
      t.match(run.stderr, /ctx: JSON parse failed/);
      t.match(box.lines('log'), [
        { params: { level: 'warning', logger: 'hooks', data: 'policy input: JSON parse failed; using default' } },
      ]);
    }
  });
}

t.test('mcp_logging_is_enabled reads the server level in any case; "true" and 1 mean debug', async (t) => {
  const box = sandbox(t);
  const run = await box.runPlain(
    `${load}
     for level in WARNING Error TRUE 1 info bogus; do
       MCPBASH_LOG_LEVEL=$level mcp_logging_is_enabled notice && printf '%s:on ' "$level" || printf '%s:off ' "$level"
     done`,
  );
  t.equal(run.code, 0, run.stderr);
  t.equal(run.stdout, 'WARNING:off Error:off TRUE:on 1:on info:on bogus:on ');
});

t.test('logging helpers: records on MCP_LOG_STREAM, else stderr; levels', async (t) => {
  const box = sandbox(t);
  const run = await box.runPlain(
    `${load}
     mcp_logging_debug a one; mcp_logging_info a two; mcp_logging_notice a three; mcp_logging_warning a four
     mcp_logging_error a five; mcp_logging_critical a six; mcp_logging_alert a seven; mcp_logging_emergency a eight
     mcp_logging_emit bogus '' nine
     MCPBASH_LOG_LEVEL=warning mcp_logging_is_enabled info && echo info-on || echo info-off
     MCPBASH_LOG_LEVEL=warning mcp_logging_is_enabled ERROR && echo error-on || echo error-off
     MCP_LOG_STREAM= mcp_logging_warning b "to stderr"`,
  );
  t.equal(run.code, 0, run.stderr);
  t.equal(run.stdout, 'info-off\nerror-on\n');
  t.same(
    box.lines('log').map((line) => {
      const { level, logger, data } = (line as { params: Record<string, string> }).params;
      return `${level} ${logger} ${data}`;
    }),
    [
      'debug a one',
      'info a two',
      'notice a three',
      'warning a four',
      'error a five',
      'critical a six',
      'alert a seven',
      'emergency a eight',
      'info mcp-bash nine',
    ],
  );
  t.equal(run.stderr, 'mcp-bash: warning: b: to stderr\n');
});

t.test('every SDK helper a hook helper calls is loaded with them (hooks have no lazy loader)', async (t) => {
  const sdkFiles = ['hook-helpers.sh', ...readdirSync(join(sdkDir, 'lib')).map((file) => join('lib', file))];
  const sdkFunctions = new Set(
    sdkFiles.flatMap((file) =>
      [...readFileSync(join(sdkDir, file), 'utf8').matchAll(/^(_?mcp_\w+)\(\) *[{(]/gm)].map((m) => m[1]),
    ),
  );
  const box = sandbox(t);
  const run = await box.runPlain(`${load}; declare -F | awk '{ print $3 }'; echo ---; declare -f`);
  t.equal(run.code, 0, run.stderr);
  const [names = '', bodies = ''] = run.stdout.split('\n---\n');
  const defined = new Set(names.split('\n'));
  const called = new Set([...bodies.matchAll(/\b_?mcp_\w+\b/g)].map((m) => m[0]).filter((w) => sdkFunctions.has(w)));
  t.ok(called.size > 20, `${called.size} helpers called`);
  t.same(
    [...called].filter((name) => !defined.has(name)),
    [],
    'no call to a helper that is not defined',
  );
});
