import t from 'tap';
import { jsonTools, sandbox, sh } from '../helpers/sdk-harness.js';

for (const tool of jsonTools()) {
  t.test(`JSON helpers with ${tool.name}`, { skip: tool.skip ?? false }, async (t) => {
    const box = sandbox(t);
    const full = tool.name !== 'minimal';

    t.test('mcp_json_escape quotes exactly like jq, without a newline', async (t) => {
      const input = 'a"b\\c\n\t\r\b\f\u0001\u001f\u007f é \u2028 end';
      const run = await box.run(`mcp_json_escape ${sh(input)}`, { tool });
      t.equal(run.code, 0);
      // jq's escaping is JSON.stringify's, plus DEL as \u007f.
      t.equal(run.stdout, JSON.stringify(input).replace('\u007f', '\\u007f'));
      t.equal(JSON.parse(run.stdout), input, 'parses back to the input');
      t.notOk(run.stdout.endsWith('\n'));
    });

    t.test('mcp_json_obj builds string-valued objects in argument order', async (t) => {
      const run = await box.run(`mcp_json_obj status ok msg 'say "hi"' n 5 empty ''`, { tool });
      t.equal(run.code, 0);
      t.equal(run.stdout, '{"status":"ok","msg":"say \\"hi\\"","n":"5","empty":""}');
      const none = await box.run('mcp_json_obj', { tool });
      t.equal(none.stdout, '{}');
    });

    t.test('mcp_json_obj with an odd argument count exits 1 even inside $(...)', async (t) => {
      const run = await box.run('x="$(mcp_json_obj a)"; echo "not reached"', { tool });
      t.equal(run.code, 1);
      t.equal(run.stdout, '');
      t.match(run.stderr, /mcp_json_obj: expected even number of arguments/);
    });

    t.test('mcp_json_arr builds string arrays', async (t) => {
      const run = await box.run(`mcp_json_arr one 'two words' 3; printf '|'; mcp_json_arr`, { tool });
      t.equal(run.stdout, '["one","two words","3"]|[]');
    });

    t.test('mcp_is_valid_json accepts exactly one value', async (t) => {
      const cases: Array<[string, boolean]> = [
        ['{"a":1}', true],
        ['false', true],
        ['null', true],
        ['"s"', true],
        ['', false],
        ['1 2', false],
        ['{', false],
        ['  ', false],
      ];
      const script = cases
        .map(([value]) => `if mcp_is_valid_json ${sh(value)}; then printf 1; else printf 0; fi`)
        .join('\n');
      const run = await box.run(script, { tool });
      const expected = cases.map(([, valid]) => (full ? (valid ? '1' : '0') : '1')).join('');
      t.equal(run.stdout, expected, full ? 'validated' : 'minimal mode cannot check and says valid');
    });

    t.test('mcp_byte_length counts bytes, not characters', async (t) => {
      const run = await box.run(`mcp_byte_length 'é€x'; printf '|'; mcp_byte_length ''`, { tool });
      t.equal(run.stdout, '6|0');
    });

    t.test('mcp_emit_text prints verbatim without a newline', async (t) => {
      const run = await box.run(`mcp_emit_text '  spaced  '`, { tool });
      t.equal(run.stdout, '  spaced  ');
    });

    t.test('mcp_emit_json compacts valid JSON, passes anything else through', async (t) => {
      const run = await box.run(`mcp_emit_json '{ "a" : [ 1, 2 ] }'; printf '|'; mcp_emit_json 'not json'`, { tool });
      t.equal(run.code, 0);
      const [json, raw] = run.stdout.split('|');
      if (full) t.equal(json, '{"a":[1,2]}');
      else t.equal(json, '{ "a" : [ 1, 2 ] }', 'minimal mode prints verbatim');
      t.equal(raw, 'not json');
    });
  });
}

t.test('no JSON tool is started in minimal mode', async (t) => {
  const box = sandbox(t);
  const marker = `${box.dir}/jq-was-called`;
  for (const name of ['jq', 'gojq']) box.fakeCommand(name, `touch ${sh(marker)}; exit 99`);
  const run = await box.run(
    `mcp_json_obj a b >/dev/null; mcp_json_arr x >/dev/null; mcp_json_escape q >/dev/null; mcp_emit_json '{}' >/dev/null
     mcp_is_valid_json x; mcp_result_success '{"a":1}' >/dev/null; mcp_result_error '{"message":"m"}' >/dev/null
     mcp_json_truncate '[1]' >/dev/null; mcp_progress 1 m; mcp_log_info l m; echo done`,
    { tool: { name: 'minimal' }, progressToken: 't' },
  );
  t.equal(run.code, 0, run.stderr);
  t.equal(run.stdout, 'done\n');
  t.notOk((await import('node:fs')).existsSync(marker), 'neither jq nor gojq ran');
});

t.test('JSON escaping does not depend on BASH_COMPAT or patsub_replacement', async (t) => {
  const box = sandbox(t);
  const value = 'C:\\dir\\sub\\\\share "quoted" & more\nline\ttab\r\b\f\u0001\u001f\u007f é end\\';
  // Bash 5.2 honours BASH_COMPAT=42 and patsub_replacement in ${s//pattern/replacement}; both
  // used to turn a doubled backslash back into one (invalid JSON).
  const modes: Array<[string, Record<string, string>, string]> = [
    ['default', {}, ''],
    ['patsub_replacement on', {}, 'shopt -s patsub_replacement 2>/dev/null || :'],
    ['patsub_replacement off', {}, 'shopt -u patsub_replacement 2>/dev/null || :'],
    ['BASH_COMPAT=42', { BASH_COMPAT: '42' }, ''],
    ['BASH_COMPAT=42 with patsub_replacement', { BASH_COMPAT: '42' }, 'shopt -s patsub_replacement 2>/dev/null || :'],
    ['BASH_COMPAT=50', { BASH_COMPAT: '50' }, ''],
  ];
  for (const [name, env, setup] of modes) {
    const run = await box.run(
      `${setup}
       v=${sh(value)}
       mcp_json_escape "$v"; printf '\\n'
       mcp_json_obj 'key\\"' "$v" path 'C:\\dir'; printf '\\n'
       mcp_json_arr "$v"; printf '\\n'
       mcp_progress 5 "$v"; mcp_log_info logger "$v"`,
      { env, progressToken: 'tok' },
    );
    t.equal(run.code, 0, `${name}: ${run.stderr}`);
    const [escaped = '', obj = '', arr = ''] = run.stdout.split('\n');
    t.equal(JSON.parse(escaped), value, `${name}: mcp_json_escape`);
    t.same(JSON.parse(obj), { 'key\\"': value, path: 'C:\\dir' }, `${name}: mcp_json_obj`);
    t.same(JSON.parse(arr), [value], `${name}: mcp_json_arr`);
    const progress = box.lines('progress').pop() as { params: { message: string } };
    t.equal(progress.params.message, value, `${name}: progress message`);
    const log = box.lines('log').pop() as { params: { data: string } };
    t.equal(log.params.data, value, `${name}: log data`);
  }
});
