import { existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import t from 'tap';
import { fullJsonTools, jsonTools, sandbox, sh } from '../helpers/sdk-harness.js';

interface CallToolResult {
  content: Array<{ type: string; text: string }>;
  structuredContent: { success: boolean; result?: unknown; error?: Record<string, unknown> };
  isError: boolean;
}

const parse = (text: string) => JSON.parse(text) as CallToolResult;

for (const tool of jsonTools()) {
  const full = tool.name !== 'minimal';
  t.test(`results and errors with ${tool.name}`, { skip: tool.skip ?? false }, async (t) => {
    const box = sandbox(t);

    t.test('mcp_fail writes the error file and stdout, the message to stderr, and exits 1', async (t) => {
      rmSync(box.files.error, { force: true });
      const run = await box.run(`mcp_fail -32001 'Cancelled "now"' '{"retry": true}'; echo unreachable`, { tool });
      t.equal(run.code, 1);
      const expected = { code: -32001, message: 'Cancelled "now"', data: { retry: true } };
      t.same(
        JSON.parse(readFileSync(box.files.error, 'utf8')),
        expected,
        'error file written although it did not exist',
      );
      t.same(JSON.parse(run.stdout), expected);
      t.equal(run.stderr, 'Cancelled "now"\n');
    });

    t.test('mcp_fail defaults and normalisation', async (t) => {
      const cases: Array<[string, unknown]> = [
        ['mcp_fail abc', { code: -32603, message: 'Tool failed', data: null }],
        ['mcp_fail +007 m', { code: 7, message: 'm', data: null }],
        ['mcp_fail -32000 m ""', { code: -32000, message: 'm', data: null }],
      ];
      if (full) cases.push(['mcp_fail 1 m "{not json"', { code: 1, message: 'm', data: null }]);
      for (const [script, expected] of cases) {
        const run = await box.run(script, { tool });
        t.equal(run.code, 1, script);
        t.same(JSON.parse(run.stdout), expected, script);
      }
      const noFile = await box.run('mcp_fail 5 quiet', { tool, env: { MCP_TOOL_ERROR_FILE: undefined } });
      t.equal(noFile.code, 1, 'works without an error file');
    });

    t.test('mcp_fail_invalid_args is -32602', async (t) => {
      const run = await box.run(`mcp_fail_invalid_args; `, { tool });
      t.same(JSON.parse(run.stdout), { code: -32602, message: 'Invalid params', data: null });
      const withData = await box.run(`mcp_fail_invalid_args 'count must be positive' '{"field":"count"}'`, { tool });
      t.same(JSON.parse(withData.stdout), {
        code: -32602,
        message: 'count must be positive',
        data: { field: 'count' },
      });
    });

    t.test('mcp_result_success wraps data in a success envelope', async (t) => {
      const data = { items: [1, 2], name: 'x' };
      const run = await box.run(`mcp_result_success ${sh(JSON.stringify(data))}`, { tool });
      t.equal(run.code, 0);
      const result = parse(run.stdout);
      t.same(result.structuredContent, { success: true, result: data });
      t.equal(result.isError, false);
      t.equal(result.content[0]?.type, 'text');
      t.same(
        JSON.parse(result.content[0]?.text ?? ''),
        { success: true, result: data },
        'text is the compact envelope',
      );
    });

    t.test('mcp_result_success summarises large data in the text', async (t) => {
      const cases: Array<[unknown, string]> = [
        [[1, 2, 3, 4, 5], 'Success: array with 5 items'],
        [{ a: 1, b: 2, c: 3 }, 'Success: object with 3 keys'],
        ['x'.repeat(150), `Success: ${'x'.repeat(100)}`],
      ];
      for (const [data, summary] of cases) {
        const run = await box.run(`mcp_result_success ${sh(JSON.stringify(data))} 10`, { tool });
        const result = parse(run.stdout);
        t.same(result.structuredContent.result, data, 'structuredContent keeps everything');
        t.equal(result.content[0]?.text, full ? summary : 'Success: response too large for text content');
      }
      const byEnv = await box.run(`mcp_result_success '[1,2]'`, { tool, env: { MCPBASH_MAX_TEXT_BYTES: '5' } });
      t.equal(
        parse(byEnv.stdout).content[0]?.text,
        full ? 'Success: array with 2 items' : 'Success: response too large for text content',
      );
      // A variable that is not a whole number means the default (102400), not 0.
      for (const bad of ['100k', 'abc', '-5']) {
        const byBadEnv = await box.run(`mcp_result_success '[1,2]'`, { tool, env: { MCPBASH_MAX_TEXT_BYTES: bad } });
        t.same(
          JSON.parse(parse(byBadEnv.stdout).content[0]?.text ?? ''),
          { success: true, result: [1, 2] },
          `MCPBASH_MAX_TEXT_BYTES=${bad} means the default`,
        );
      }
    });

    t.test('mcp_result_success rejects empty, invalid and multi-value input as isError results', async (t) => {
      const empty = parse((await box.run(`mcp_result_success ''`, { tool })).stdout);
      t.equal(empty.isError, true);
      t.same(empty.structuredContent.error, {
        type: 'internal_error',
        message: 'Empty data passed to mcp_result_success',
      });
      if (!full) return;
      const invalid = await box.run(`mcp_result_success '{oops'; echo "rc=$?"`, { tool });
      t.match(invalid.stdout, /rc=0\n$/, 'always returns 0');
      t.same(parse(invalid.stdout.replace(/rc=0\n$/, '')).structuredContent.error, {
        type: 'internal_error',
        message: 'Invalid JSON passed to mcp_result_success',
      });
      const multi = parse((await box.run(`mcp_result_success '1 2'`, { tool })).stdout);
      t.equal(multi.isError, true);
      t.same(multi.structuredContent.error, {
        type: 'internal_error',
        message: 'Input contained multiple JSON values',
        count: 2,
      });
    });

    t.test('mcp_result_error builds isError results', async (t) => {
      const run = await box.run(`mcp_result_error '{"type":"not_found","message":"No user","id":7}'; echo "rc=$?"`, {
        tool,
      });
      t.match(run.stdout, /rc=0\n$/);
      const result = parse(run.stdout.replace(/rc=0\n$/, ''));
      t.equal(result.isError, true);
      t.equal(result.content[0]?.text, 'No user');
      if (full) {
        t.same(result.structuredContent, { success: false, error: { type: 'not_found', message: 'No user', id: 7 } });
        const defaults = parse((await box.run(`mcp_result_error '{"path":"/x"}'`, { tool })).stdout);
        t.same(defaults.structuredContent.error, { path: '/x', type: 'internal_error', message: 'Unknown error' });
        const notObject = parse((await box.run(`mcp_result_error '[1]'`, { tool })).stdout);
        t.same(notObject.structuredContent.error, {
          type: 'internal_error',
          message: 'Error payload must be an object',
          raw: '[1]',
        });
        const invalid = parse((await box.run(`mcp_result_error 'plain text'`, { tool })).stdout);
        t.same(invalid.structuredContent.error, {
          type: 'internal_error',
          message: 'Invalid error JSON passed to mcp_result_error',
          raw: 'plain text',
        });
      } else {
        t.same(result.structuredContent, {
          success: false,
          error: { type: 'internal_error', message: 'No user', raw: '{"type":"not_found","message":"No user","id":7}' },
        });
      }
    });

    t.test('mcp_error builds {type,message,hint,data} and logs it', async (t) => {
      writeFileSync(box.files.log, '');
      const run = await box.run(
        `mcp_error validation_error 'Count must be positive' --hint 'Try count=10' --data '{"received":-5}'`,
        { tool },
      );
      t.equal(run.code, 0);
      const result = parse(run.stdout);
      t.same(result.structuredContent.error, {
        type: 'validation_error',
        message: 'Count must be positive',
        hint: 'Try count=10',
        data: { received: -5 },
      });
      t.equal(result.content[0]?.text, full ? 'Count must be positive' : 'Count must be positive');
      t.same(
        box.lines('log').map((line) => (line as { params: unknown }).params),
        [
          { level: 'debug', logger: 'mcp_error', data: 'type=validation_error: Count must be positive' },
          {
            level: 'warning',
            logger: 'mcp_error',
            data: 'type=validation_error: Count must be positive (hint: Try count=10)',
          },
        ],
      );
      const plain = parse((await box.run(`mcp_error not_found 'User missing' --ignored x`, { tool })).stdout);
      t.same(plain.structuredContent.error, { type: 'not_found', message: 'User missing' });
      const defaults = parse((await box.run('mcp_error', { tool })).stdout);
      t.same(defaults.structuredContent.error, { type: 'internal_error', message: 'Unknown error' });
      // Invalid DATA is kept as {"_invalid_json": raw} in minimal mode too (checked in pure Bash).
      for (const bad of ['{broken', 'not json', '{"a":1,}', '[1 2]', '"open']) {
        const run = await box.run(`mcp_error t m --data ${sh(bad)}`, { tool });
        t.same(
          parse(run.stdout).structuredContent.error,
          { type: 't', message: 'm', data: { _invalid_json: bad } },
          bad,
        );
      }
      const nested = { a: [1, -2.5e3, true, null, { b: 'q"uo\\te' }], c: {} };
      const good = parse(
        (await box.run(`mcp_error t m --data ${sh(JSON.stringify(nested, null, 1))}`, { tool })).stdout,
      );
      t.same(good.structuredContent.error, { type: 't', message: 'm', data: nested }, 'valid DATA is kept as is');
    });

    t.test('mcp_result_text_with_resource lists files in the resources file', async (t) => {
      const text = join(box.dir, 'report.txt');
      const png = join(box.dir, 'chart.bin');
      writeFileSync(text, 'hello\n');
      writeFileSync(png, Buffer.from([0, 1, 2, 3]));
      rmSync(box.files.resources, { force: true });
      const run = await box.run(
        `cd ${sh(box.dir)}; mcp_result_text_with_resource '{"status":"done"}' --path report.txt --path ` +
          `chart.bin --mime image/png --uri 'file:///custom' --path missing.txt --path ''`,
        { tool },
      );
      t.equal(run.code, 0, run.stderr);
      t.same(parse(run.stdout).structuredContent, { success: true, result: { status: 'done' } });
      const detected = existsSync('/usr/bin/file') ? 'text/plain' : 'application/octet-stream';
      t.same(JSON.parse(readFileSync(box.files.resources, 'utf8')), [
        { path: text, mimeType: detected, uri: null },
        { path: png, mimeType: 'image/png', uri: 'file:///custom' },
      ]);
      t.match(box.read('log'), /not a readable file, skipping path=missing\.txt/);
    });

    t.test('mcp_result_text_with_resource accepts plain text as data', async (t) => {
      const run = await box.run(`mcp_result_text_with_resource 'Report ready'`, { tool });
      t.same(parse(run.stdout).structuredContent, { success: true, result: 'Report ready' });
    });

    const slow = tool.name === 'builtin' ? 'covered for the built-in jq by the SDK tour' : false;
    t.test('mcp_extract_cli_error picks the most useful message', { skip: slow }, async (t) => {
      const cases: Array<[string, string, string, string]> = [
        ['{"ok":false,"error":{"message":"Missing param"}}', '', '1', 'Missing param'],
        ['{"success":false,"error":"Rate limited"}', '', '1', 'Rate limited'],
        ['{"success":false,"message":"Not found"}', '', '1', 'Not found'],
        ['{"status":"error","message":"Bad"}', '', '1', 'Bad'],
        ['{"errors":[{"message":"Query failed"}]}', '', '1', 'Query failed'],
        ['{"error":{"message":null}}', 'stderr msg', '1', 'stderr msg'],
        ['{"success":true,"message":"Operation completed"}', 'fallback', '1', 'fallback'],
        ['[1,2,3]', 'stderr fallback', '1', 'stderr fallback'],
        ['not json', 'Connection refused\nmore', '1', 'Connection refused'],
        ['not json', '\n  \r\nConnection refused\r\nmore', '1', 'Connection refused'],
        ['', ' \n\n', '3', 'CLI exited with code 3'],
        ['', '', '42', 'CLI exited with code 42'],
      ];
      for (const [stdout, stderr, code, expected] of cases) {
        const run = await box.run(`mcp_extract_cli_error ${sh(stdout)} ${sh(stderr)} ${code}`, { tool });
        const json = stdout.startsWith('{') && !['stderr msg', 'fallback'].includes(expected);
        t.equal(
          run.stdout,
          full || !json ? expected : stderr || `CLI exited with code ${code}`,
          `${stdout} | ${stderr}`,
        );
      }
    });
  });
}

t.test('mcp_result_success of mcp_json_obj or mcp_json_arr output runs no JSON process', async (t) => {
  const box = sandbox(t);
  // A JSON tool that can only fail, and says so: an answer proves it was not run.
  const marker = join(box.dir, 'jq-ran');
  const failing = join(box.dir, 'failing-jq');
  writeFileSync(failing, `#!/bin/sh\ntouch ${sh(marker)}\nexit 3\n`, { mode: 0o755 });
  const hostile = [
    'plain',
    'quote " and \\ backslash',
    'tab\there\nnewline\r',
    '\u0001\u0008\u001f\u007f',
    'é ☃ 🎉',
    '',
  ];
  const options = { tool: { name: 'jq', bin: failing } as const };
  for (const [script, data] of [
    ['mcp_json_obj', Object.fromEntries(hostile.map((value, i) => [`k${i} ${value}`, value]))],
    ['mcp_json_arr', hostile],
    ['mcp_json_obj', {}],
  ] as const) {
    const words = Array.isArray(data) ? data : Object.entries(data).flat();
    const run = await box.run(`mcp_result_success "$(${script} ${words.map(sh).join(' ')})"`, options);
    t.equal(run.code, 0, run.stderr);
    const envelope = { success: true, result: data };
    // jq's bytes: JSON.stringify's, but DEL escaped as jq (and the SDK's quoting) escape it.
    const asJq = (value: unknown) => JSON.stringify(value).replaceAll('\u007f', '\\u007f');
    const text = asJq(envelope);
    t.equal(
      run.stdout,
      `${asJq({ content: [{ type: 'text', text }], structuredContent: envelope, isError: false })}\n`,
    );
  }
  t.notOk(existsSync(marker), 'the JSON tool never ran');
  const other = await box.run(`mcp_result_success '{"n":1}' >/dev/null || true`, options);
  t.equal(other.code, 0);
  t.ok(existsSync(marker), 'other data still goes through the JSON tool');
});

t.test('the result fast path takes exactly the text jq would print itself, in any locale', async (t) => {
  const box = sandbox(t);
  const hostile = ['plain', 'q " b \\ /', 'tab\there\nnl\r', '\u0001\u0008\u000b\u001f\u007f', 'é ☃ 🎉', ''];
  // jq's spelling of a valid value: JSON.stringify's, but DEL escaped.
  const asJq = (value: unknown) => Buffer.from(JSON.stringify(value).replaceAll('\u007f', '\\u007f'));
  const taken = [
    ...hostile.map((value) => asJq([value])),
    asJq(hostile),
    asJq(Object.fromEntries(hostile.map((value, i) => [`${value}${i}`, value]))),
    asJq({ '': '' }),
    asJq({}),
    asJq([]),
  ];
  const left = [
    '{"a":1}',
    '["a",1]',
    '{"a": "b"}',
    '[ "a"]',
    '{"a":"b"}x',
    '{"a":"b",}',
    '["a",]',
    '{"a"}',
    '{"a":"b":"c"}',
    '{"a":"b","a":"c"}',
    '{"":"1","":"2"}',
    '["\\u0008"]',
    '["\\u00e9"]',
    '["\\/"]',
    '["\\u001F"]',
    '["\\x"]',
    '["a"',
    '{"a":"b"]',
    '["a"}',
    '{"a":["b"]}',
    '"a"',
    '["a"]]',
    '[]]',
    `["${'x'.repeat(4100)}"]`,
  ].map((text) => Buffer.from(text));
  // Bytes jq would not print as they are: invalid UTF-8, a C1 control, a raw control.
  left.push(Buffer.from([0x5b, 0x22, 0xff, 0x22, 0x5d]), Buffer.from([0x5b, 0x22, 0xc2, 0x85, 0x22, 0x5d]));
  left.push(Buffer.from('["a\tb"]'), Buffer.from('{"k":"\u007f"}'));
  const file = join(box.dir, 'candidates');
  writeFileSync(file, Buffer.concat([...taken, ...left].flatMap((text) => [text, Buffer.from([0])])));
  const check = (locale: string) =>
    box.run(
      `_mcp_sdk_load results
       export LC_ALL=${locale}
       while IFS= read -r -d '' c; do _mcp_json_flat_strings "$c" && printf 1 || printf 0; done <${sh(file)}`,
    );
  const utf8 = await check('C.UTF-8');
  t.equal(utf8.code, 0, utf8.stderr);
  t.equal(utf8.stdout, `${'1'.repeat(taken.length)}${'0'.repeat(left.length)}`);
  // In the C locale every byte above 127 goes to jq (it may not be valid UTF-8); ASCII is taken.
  const plain = await check('C');
  const ascii = taken.map((text) => (text.every((byte) => byte < 0x80) ? '1' : '0')).join('');
  t.equal(plain.stdout, `${ascii}${'0'.repeat(left.length)}`);
  t.match(ascii, /0/, 'some candidates are not ASCII');
});

for (const tool of fullJsonTools()) {
  t.test(
    `a key given twice: the JSON tool's answer, the last value (${tool.name})`,
    { skip: tool.skip ?? false },
    async (t) => {
      const box = sandbox(t);
      const run = await box.run('mcp_result_success "$(mcp_json_obj a 1 b x a 2)"', { tool });
      t.equal(run.code, 0, run.stderr);
      const result = JSON.parse(run.stdout);
      t.same(result.structuredContent, { success: true, result: { a: '2', b: 'x' } });
      t.same(JSON.parse(result.content[0].text), result.structuredContent);
      t.notMatch(result.content[0].text, /"1"/, 'the first value is gone from the text too');
    },
  );
}
