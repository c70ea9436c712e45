import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import t from 'tap';
import { jsonTools, sandbox, sh } from '../helpers/sdk-harness.js';

for (const tool of jsonTools()) {
  const full = tool.name !== 'minimal';
  // The built-in jq runs ~0.2 s per call: it gets the jq-program-heavy truncation here, and
  // the config helpers once through the SDK tour (test/sdk/tour.test.ts).
  const configSkip = tool.skip ?? (tool.name === 'builtin' ? 'covered for the built-in jq by the SDK tour' : false);
  t.test(`mcp_config_load / mcp_config_get with ${tool.name}`, { skip: configSkip }, async (t) => {
    const box = sandbox(t);
    const example = join(box.dir, 'config.example.json');
    const file = join(box.dir, 'config.json');
    const fromEnvFile = join(box.dir, 'env-config.json');
    writeFileSync(example, JSON.stringify({ timeout: 10, level: 'example', api: { key: 'k1' } }));
    writeFileSync(file, JSON.stringify({ level: 'file', debug: false }));
    writeFileSync(fromEnvFile, JSON.stringify({ level: 'env-file' }));
    const load =
      `mcp_config_load --env MY_CFG --file ${sh(file)} --example ${sh(example)} --defaults ` +
      `'{"timeout":30,"retries":3,"empty":""}'`;

    t.test('precedence: env > file > example > defaults, merged shallowly', async (t) => {
      const run = await box.run(`${load}; printf '%s' "$MCP_CONFIG_JSON"`, { tool, env: { MY_CFG: '{"retries":5}' } });
      t.equal(run.code, 0, run.stderr);
      if (full) {
        t.same(JSON.parse(run.stdout), {
          timeout: 10,
          retries: 5,
          empty: '',
          level: 'file',
          api: { key: 'k1' },
          debug: false,
        });
      } else {
        t.same(JSON.parse(run.stdout), { retries: 5 }, 'minimal mode: the highest-precedence source wins whole');
      }
    });

    t.test('the env variable may name a file; MCP_CONFIG_JSON is exported', async (t) => {
      const run = await box.run(`${load}; bash -c 'printf "%s" "$MCP_CONFIG_JSON"'`, {
        tool,
        env: { MY_CFG: fromEnvFile },
      });
      t.equal(JSON.parse(run.stdout).level, 'env-file');
    });

    t.test('mcp_config_get reads values, false and "" are values, missing takes the default', async (t) => {
      const run = await box.run(
        `${load}; for q in .timeout .level .debug .empty; do printf '[%s]' "$(mcp_config_get "$q")"; done
         printf '[%s]' "$(mcp_config_get .nope --default fallback)"
         mcp_config_get .nope && echo found || echo "missing rc=$?"`,
        { tool },
      );
      // Minimal mode keeps only the file (the highest source here): .timeout is missing.
      t.equal(
        run.stdout,
        full ? '[10][file][false][][fallback]missing rc=1\n' : '[][file][false][][fallback]missing rc=1\n',
      );
      if (full) {
        const nested = await box.run(`${load}; mcp_config_get .api.key; printf '|'; mcp_config_get .api`, { tool });
        t.equal(nested.stdout, 'k1|{"key":"k1"}');
      } else {
        const nested = await box.run(`${load}; mcp_config_get .api.key --default d`, { tool });
        t.equal(nested.stdout, 'd', 'minimal mode understands top-level keys only');
      }
    });

    t.test('no source: status 1 and a warning log; invalid sources are skipped', async (t) => {
      writeFileSync(box.files.log, '');
      const none = await box.run(
        'mcp_config_load --file /nonexistent && echo ok || echo "rc=$?"; printf "%s" "$MCP_CONFIG_JSON"',
        { tool },
      );
      t.equal(none.stdout, 'rc=1\n{}');
      t.match(box.read('log'), /No configuration sources loaded/);
      if (full) {
        const bad = join(box.dir, 'bad.json');
        writeFileSync(bad, '{broken');
        const run = await box.run(
          `mcp_config_load --file ${sh(bad)} --defaults '{"a":1}'; printf '%s' "$MCP_CONFIG_JSON"`,
          { tool },
        );
        t.same(JSON.parse(run.stdout), { a: 1 });
        t.match(box.read('log'), /Invalid JSON in file/);
      }
    });
  });

  t.test(`mcp_json_truncate with ${tool.name}`, { skip: tool.skip ?? false }, async (t) => {
    const box = sandbox(t);
    const truncate = async (args: string) => {
      const run = await box.run(`mcp_json_truncate ${args}`, { tool });
      t.equal(run.code, 0, `status 0 for ${args}`);
      return JSON.parse(run.stdout) as Record<string, unknown>;
    };
    if (!full) {
      t.same(await truncate(`'[1,2,3]' 2`), {
        result: [1, 2, 3],
        truncated: false,
        _warning: 'truncation unavailable in minimal mode',
      });
      for (const blank of [`''`, `$' \\n\\t '`, '']) {
        t.same(
          await truncate(blank),
          { result: null, truncated: false, _warning: 'truncation unavailable in minimal mode' },
          `blank input ${blank}`,
        );
      }
      return;
    }
    const items = Array.from({ length: 20 }, (_, index) => ({ id: index, name: `item-${index}` }));
    const arr = JSON.stringify(items);
    const small = await truncate(`${sh(arr)} 100`);
    t.equal(small.truncated, true);
    t.equal(small.total, 20);
    t.ok(JSON.stringify(small.result).length <= 100, 'the result fits');
    t.equal(
      JSON.stringify(items.slice(0, (small.kept as number) + 1)).length > 100,
      true,
      'and is the longest prefix that fits',
    );
    t.same(small.result, items.slice(0, small.kept as number));

    t.same(await truncate(`'[1,2]'`), { result: [1, 2], truncated: false }, 'small enough: untouched (default budget)');
    const badBudget = await box.run(`mcp_json_truncate '[1,2]'`, { tool, env: { MCPBASH_MAX_TEXT_BYTES: '100k' } });
    t.same(
      JSON.parse(badBudget.stdout),
      { result: [1, 2], truncated: false },
      'MCPBASH_MAX_TEXT_BYTES that is not a whole number means the default budget, not 0',
    );
    t.same(await truncate(`'["${'x'.repeat(50)}"]' 10`), {
      result: [],
      truncated: true,
      kept: 0,
      total: 1,
      _warning: 'individual items exceed max_bytes',
    });

    const wrapped = JSON.stringify({ meta: { page: 1 }, data: { rows: items } });
    const byPath = await truncate(`${sh(wrapped)} 200 --array-path .data.rows`);
    t.equal(byPath.truncated, true);
    const kept = byPath.kept as number;
    t.same(byPath.result, { meta: { page: 1 }, data: { rows: items.slice(0, kept) } });
    t.ok(JSON.stringify(byPath.result).length <= 200);
    t.ok(JSON.stringify({ meta: { page: 1 }, data: { rows: items.slice(0, kept + 1) } }).length > 200);
    t.same(await truncate(`--array-path .data.rows ${sh(wrapped)} 100000`), {
      result: JSON.parse(wrapped),
      truncated: false,
      kept: 20,
      total: 20,
    });

    const results = JSON.stringify({ results: items });
    const heuristic = await truncate(`${sh(results)} 150`);
    t.equal(heuristic.truncated, true, '.results is found without --array-path');

    const errors: Array<[string, string]> = [
      [`'{oops' 10`, 'invalid_json'],
      [`'1 2' 10`, 'invalid_json'],
      [`'' 10`, 'invalid_json'],
      [`'{"a":[1]}' 10 --array-path 'a'`, 'invalid_path_syntax'],
      [`'{"a":[1]}' 10 --array-path '.a[0]'`, 'invalid_path_syntax'],
      [`'{"a":[1]}' 10 --array-path`, 'invalid_path_syntax'],
      [`'{"a":[1]}' 10 --array-path .b`, 'path_not_found'],
      [`'{"a":5}' 10 --array-path .a`, 'invalid_array_path'],
      [`'[1]' 10 --array-path .a`, 'invalid_path'],
      [`'{"big":"${'y'.repeat(40)}","a":[1]}' 10 --array-path .a`, 'output_too_large'],
      [`'{"big":"${'y'.repeat(40)}"}' 10`, 'output_too_large'],
    ];
    for (const [args, type] of errors) {
      const out = await truncate(args);
      t.equal((out.error as { type: string } | undefined)?.type, type, args);
      t.equal(out.result, null);
      t.equal(out.truncated, false);
    }
    const multi = await truncate(`'1 2' 10`);
    t.same(multi.error, {
      type: 'invalid_json',
      message: 'Multiple JSON values found (2): expected exactly one',
      raw: '1 2',
    });
  });
}
