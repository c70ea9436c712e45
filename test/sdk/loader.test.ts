import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import t from 'tap';
import { repoRoot } from '../helpers/paths.js';
import { jsonTools, sandbox, sdkDir } from '../helpers/sdk-harness.js';

/** Every public function of the tool SDK (original-behaviour.md §4.1-4.7, plus the loader). */
const PUBLIC_FUNCTIONS = [
  'mcp_json_escape',
  'mcp_json_obj',
  'mcp_json_arr',
  'mcp_args_raw',
  'mcp_args_get',
  'mcp_args_require',
  'mcp_args_bool',
  'mcp_args_int',
  'mcp_meta_raw',
  'mcp_meta_get',
  'mcp_is_cancelled',
  'mcp_progress',
  'mcp_log',
  'mcp_log_debug',
  'mcp_log_info',
  'mcp_log_warn',
  'mcp_log_error',
  'mcp_debug',
  'mcp_with_retry',
  'mcp_fail',
  'mcp_fail_invalid_args',
  'mcp_emit_text',
  'mcp_emit_json',
  'mcp_roots_list',
  'mcp_roots_count',
  'mcp_roots_contains',
  'mcp_require_path',
  'mcp_elicit',
  'mcp_elicit_url',
  'mcp_elicit_complete',
  'mcp_elicit_string',
  'mcp_elicit_confirm',
  'mcp_elicit_choice',
  'mcp_elicit_titled_choice',
  'mcp_elicit_multi_choice',
  'mcp_elicit_titled_multi_choice',
  'mcp_sample',
  'mcp_sample_messages',
  'mcp_is_valid_json',
  'mcp_extract_cli_error',
  'mcp_byte_length',
  'mcp_result_success',
  'mcp_result_error',
  'mcp_error',
  'mcp_result_text_with_resource',
  'mcp_result_content',
  'mcp_content_text',
  'mcp_content_image',
  'mcp_content_audio',
  'mcp_content_resource_link',
  'mcp_prompt_message',
  'mcp_config_load',
  'mcp_config_get',
  'mcp_json_truncate',
  'mcp_download_safe',
  'mcp_download_safe_or_fail',
  'mcp_run_with_progress',
  'mcp_path_normalize',
  'mcp_path_collapse',
  'mcp_sdk_load_path_helpers',
  'mcp_client_supports_ui',
  'mcp_result_with_ui',
  'mcp_result_with_ui_data',
  'mcp_ui_form',
  'mcp_ui_table',
  'mcp_tool_meta_with_ui',
];

t.test('defines every documented public function and nothing else public', async (t) => {
  const box = sandbox(t);
  const run = await box.run("declare -F | awk '{ print $3 }'");
  const defined = run.stdout.split('\n').filter(Boolean);
  for (const name of PUBLIC_FUNCTIONS) t.ok(defined.includes(name), `${name} is defined`);
  const publicNames = defined.filter((name) => !name.startsWith('_'));
  t.same(publicNames.sort(), [...PUBLIC_FUNCTIONS].sort(), 'no undocumented public names');
  t.ok(
    defined.filter((name) => name.startsWith('_')).every((name) => name.startsWith('_mcp_')),
    'private helpers are _mcp_*',
  );
});

t.test('sourcing sets no shell options and is idempotent', async (t) => {
  const box = sandbox(t);
  const run = await box.runPlain(
    `set +euo pipefail; before="$-|$(set -o | tr -s ' ')|$(shopt | tr -s ' ')"
     source "$MCP_SDK/tool-sdk.sh"; source "$MCP_SDK/tool-sdk.sh"
     after="$-|$(set -o | tr -s ' ')|$(shopt | tr -s ' ')"
     [ "$before" = "$after" ] && echo same-options
     trap -p | wc -l`,
  );
  t.equal(run.stdout, 'same-options\n0\n', 'options unchanged, no traps installed');
  const twice = await box.run('source "$MCP_SDK/tool-sdk.sh"; mcp_json_arr a');
  t.equal(twice.stdout, '["a"]');
});

t.test('works when sourced through a relative path from another directory', async (t) => {
  const box = sandbox(t);
  const run = await box.runPlain(
    `cd ${JSON.stringify(join(sdkDir, 'lib'))}; source ../tool-sdk.sh; cd /; mcp_json_obj k v`,
  );
  t.equal(run.stdout, '{"k":"v"}');
});

t.test('every public function has a header comment', async (t) => {
  const files = ['tool-sdk.sh', ...readdirSync(join(sdkDir, 'lib')).map((file) => join('lib', file))];
  const text = files.map((file) => readFileSync(join(sdkDir, file), 'utf8')).join('\n');
  for (const name of PUBLIC_FUNCTIONS) {
    t.match(
      text,
      new RegExp(`# ${name}\\b[^\\n]*\\n(#[^\\n]*\\n)*${name}\\(\\) \\{`),
      `${name} is documented where it is defined`,
    );
  }
});

t.test('health-check helpers', async (t) => {
  const box = sandbox(t);
  const run = await box.runPlain(
    `source "$MCP_SDK/health-checks.sh"; source "$MCP_SDK/health-checks.sh"
     mcp_health_check_command bash "Bash shell" && echo pass1
     mcp_health_check_command no-such-command-xyz && echo pass2 || echo fail2
     MY_TOKEN=secret-value mcp_health_check_env MY_TOKEN "API token" && echo pass3
     mcp_health_check_env UNSET_VAR_XYZ && echo pass4 || echo fail4
     mcp_health_check_env 'bad name' || echo fail5`,
  );
  t.equal(run.stdout, 'pass1\nfail2\npass3\nfail4\nfail5\n');
  t.equal(
    run.stderr,
    [
      '✓ Bash shell (bash found)',
      '✗ no-such-command-xyz (no-such-command-xyz not found on PATH)',
      '✓ API token (MY_TOKEN is set)',
      '✗ UNSET_VAR_XYZ (UNSET_VAR_XYZ is not set)',
      '✗ bad name (bad name is not set)',
      '',
    ].join('\n'),
  );
  t.notMatch(run.stderr, /secret-value/, 'values are never printed');
});

t.test('every public function survives being called with no arguments under set -euo pipefail', async (t) => {
  const box = sandbox(t);
  // Each call runs in a subshell (mcp_fail exits) with stdin closed; its stderr is kept.
  // Failing with the documented error is fine; dying on an unset variable is not.
  const script = `
    for fn in $(declare -F | awk '$3 ~ /^mcp_/ { print $3 }'); do
      ( "$fn" ) </dev/null >/dev/null 2>"$TMPDIR/stderr" && rc=0 || rc=$?
      printf '%s\\t%s\\t' "$fn" "$rc"
      tr '\\n' ' ' <"$TMPDIR/stderr"
      printf '\\n'
    done`;
  const environments: Array<[string, Parameters<typeof box.run>[1]]> = [
    ['the server environment', { tool: jsonTools()[0], env: { MCPBASH_ELICITATION_TIMEOUT: '1' } }],
    [
      'no MCP_* or MCPBASH_* variables at all',
      {
        env: Object.fromEntries(
          Object.keys(box.env())
            .filter((key) => /^MCP(BASH)?_/.test(key) && key !== 'MCP_SDK')
            .map((key) => [key, undefined]),
        ),
      },
    ],
  ];
  for (const [name, options] of environments) {
    const run = await box.run(script, { ...options, timeoutMs: 120_000 });
    t.equal(run.code, 0, `${name}: ${run.stderr}`);
    const rows = run.stdout
      .split('\n')
      .filter(Boolean)
      .map((line) => line.split('\t'));
    t.same(rows.map(([fn]) => fn).sort(), [...PUBLIC_FUNCTIONS].sort(), `${name}: every public function was called`);
    for (const [fn = '', rc = '', stderr = ''] of rows) {
      t.notMatch(stderr, /unbound variable|bad substitution|syntax error/, `${name}: ${fn} (status ${rc})`);
    }
  }
});

t.test('docs/SDK.md shows every public function in an example', async (t) => {
  const doc = readFileSync(join(repoRoot, 'docs', 'SDK.md'), 'utf8');
  const examples = [...doc.matchAll(/```bash\n([\s\S]*?)```/g)].map((match) => match[1]).join('\n');
  for (const name of PUBLIC_FUNCTIONS)
    t.ok(new RegExp(`(^|[^\\w])${name}([^\\w]|$)`, 'm').test(examples), `${name} has an example`);
});
