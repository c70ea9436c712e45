import { cpSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import t from 'tap';
import { generateToolSdk, toolSdkPath } from '../../release/sdk-stubs.mjs';
import { sandbox, sdkDir, sh } from '../helpers/sdk-harness.js';

// The SDK loads lazily (D297): sourcing tool-sdk.sh defines stubs (public functions, and
// private ones another library calls) and loads core.sh and args.sh, which nearly every tool
// runs; a stub's first call sources the one library that defines it, whose real functions
// replace the stubs.

t.test('the committed loader block is what release/sdk-stubs.mjs generates (npm run generate)', async (t) => {
  t.equal(readFileSync(toolSdkPath, 'utf8'), generateToolSdk(), 'run npm run generate');
});

/** The stubs of tool-sdk.sh: function name -> the library its first call loads. */
const stubs = new Map(
  [...readFileSync(toolSdkPath, 'utf8').matchAll(/^(_?mcp_\w+)\(\) \{ _mcp_sdk_run ([\w-]+) "\$@"; \}$/gm)].map(
    (match) => [match[1] as string, match[2] as string],
  ),
);

t.test('sourcing loads the core and the argument reader only; a first call loads its library', async (t) => {
  const names = [...stubs.keys()];
  t.ok(names.filter((name) => name.startsWith('mcp_')).length >= 60, `${stubs.size} stubs`);
  t.ok(names.includes('_mcp_is_uint') && !names.includes('_mcp_json_check_tokens'), 'private stubs: called across');
  t.notOk(names.includes('_mcp_json_quote_to') || names.includes('mcp_args_get'), 'no stubs for core.sh and args.sh');
  const box = sandbox(t);
  const run = await box.run(
    `declare -F | awk '{ print $3 }' | grep -c -v '^_\\?mcp_' || true
     printf 'loaded:%s\\n' "\${_MCPBASH_SDK_LOADED-}"
     mcp_json_arr a b; echo
     printf 'loaded:%s\\n' "\${_MCPBASH_SDK_LOADED-}"
     declare -f mcp_json_obj | grep -c _mcp_sdk_run || true
     declare -f _mcp_json_ok | grep -c _mcp_sdk_run || true
     declare -f _mcp_is_uint | grep -c _mcp_sdk_run`,
  );
  t.equal(run.code, 0, run.stderr);
  // mcp_json_arr (json.sh) loads its library only; the number checks (numbers.sh) stay stubs.
  t.same(run.stdout.split('\n'), ['0', 'loaded: core args', '["a","b"]', 'loaded: core args json', '0', '0', '1', '']);
});

t.test('every stub loads a library that defines its function for real', async (t) => {
  const box = sandbox(t);
  const checks = [...stubs]
    .map(([fn, lib]) => `( _mcp_sdk_load ${lib}; declare -f ${fn} | grep -q _mcp_sdk_run && echo ${fn} ) || true`)
    .join('\n');
  const run = await box.run(`${checks}\necho done`);
  t.equal(run.stdout, 'done\n', 'no function is still a stub once its libraries are loaded');
});

t.test('a first call through a stub: the arguments, the status, a variable set in the caller', async (t) => {
  const box = sandbox(t);
  // numbers.sh is not loaded yet: each first call below goes through its stub.
  const run = await box.run(
    `f() { local v=""; _mcp_strip_zeros_to v 007; echo "v=$v"; }; f
     _mcp_is_uint 12x && echo yes || echo "no rc=$?"
     printf 'loaded:%s\\n' "\${_MCPBASH_SDK_LOADED-}"`,
  );
  t.equal(run.code, 0, run.stderr);
  t.equal(run.stdout, 'v=7\nno rc=1\nloaded: core args numbers\n');
});

t.test('a library that cannot be read: the call fails, it does not loop', async (t) => {
  const box = sandbox(t);
  const copy = join(box.dir, 'sdk');
  cpSync(sdkDir, copy, { recursive: true });
  rmSync(join(copy, 'lib', 'ui.sh'));
  const run = await box.runPlain(
    `source ${sh(join(copy, 'tool-sdk.sh'))}; mcp_client_supports_ui && rc=0 || rc=$?; echo "rc=$rc"`,
  );
  t.equal(run.stdout, 'rc=1\n');
  t.match(run.stderr, /ui\.sh/);
});

t.test('without the core or the argument reader, sourcing the SDK fails', async (t) => {
  const box = sandbox(t);
  for (const lib of ['core', 'args']) {
    const copy = join(box.dir, `sdk-${lib}`);
    cpSync(sdkDir, copy, { recursive: true });
    rmSync(join(copy, 'lib', `${lib}.sh`));
    const run = await box.runPlain(`source ${sh(join(copy, 'tool-sdk.sh'))}; echo unreachable`);
    t.equal(run.code, 1, `${lib}.sh missing`);
    t.equal(run.stdout, '');
    t.match(run.stderr, new RegExp(`${lib}\\.sh`));
  }
});

t.test('a function the tool redefines after its library loaded stays the tool’s (docs/SDK.md, Loading)', async (t) => {
  const box = sandbox(t);
  const run = await box.run(
    `mcp_log_info tool starting
     mcp_log_debug() { echo mine; }
     mcp_log_warn tool later
     mcp_log_debug`,
  );
  t.equal(run.code, 0, run.stderr);
  t.equal(run.stdout, 'mine\n');
});
