import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import t from 'tap';
import { jsonTools, mcpBashWrapper, sandbox, sh } from '../helpers/sdk-harness.js';

type Json = Record<string, any>;

/** The config a generated page hands its script. */
function pageConfig(html: string): Json {
  const match = /<script type="application\/json" id="mcp-app-config">([\s\S]*?)<\/script>/.exec(html);
  return JSON.parse(match?.[1] ?? 'null') as Json;
}

const binary = mcpBashWrapper();

for (const tool of jsonTools()) {
  const full = tool.name !== 'minimal';
  t.test(`the UI SDK with ${tool.name}`, { skip: tool.skip ?? false }, async (t) => {
    const box = sandbox(t);
    const state = t.testdir();
    const ui = { MCPBASH_CLIENT_SUPPORTS_UI: '1' };

    t.test('mcp_client_supports_ui: the variable, else the state file', async (t) => {
      const check = async (env: Record<string, string | undefined>, file?: string) => {
        if (file === undefined) writeFileSync(join(state, 'extensions.ui.support'), '');
        else writeFileSync(join(state, 'extensions.ui.support'), file);
        const run = await box.run('mcp_client_supports_ui && echo yes || echo no', {
          tool,
          env: { MCPBASH_STATE_DIR: state, ...env },
        });
        return run.stdout.trim();
      };
      t.equal(await check({ MCPBASH_CLIENT_SUPPORTS_UI: '1' }), 'yes');
      t.equal(await check({ MCPBASH_CLIENT_SUPPORTS_UI: '0' }, '1'), 'yes', "1.x: the server's flag file");
      t.equal(await check({}, '1\n'), 'yes');
      t.equal(await check({ MCPBASH_CLIENT_SUPPORTS_UI: '0' }, '0'), 'no');
      t.equal(await check({}), 'no');
      const noState = await box.run('mcp_client_supports_ui && echo yes || echo no', { tool, env: {} });
      t.equal(noState.stdout.trim(), 'no', 'no MCPBASH_STATE_DIR: no support');
    });

    t.test('mcp_result_with_ui: text for the model, an object for the view', async (t) => {
      const result = async (args: string, env: Record<string, string> = ui) =>
        JSON.parse((await box.run(`mcp_result_with_ui ${args}`, { tool, env })).stdout) as Json;
      t.same(await result(`ui://x/y 'Said "hi"\nbye' '{"items":5}'`), {
        content: [{ type: 'text', text: 'Said "hi"\nbye' }],
        structuredContent: { items: 5 },
        isError: false,
      });
      t.same((await result(`"" rows '[1,2]'`)).structuredContent, { items: [1, 2] }, 'an array becomes {items}');
      t.same((await result(`"" n 42`)).structuredContent, { value: 42 }, 'a scalar becomes {value}');
      t.same(await result('"" plain'), { content: [{ type: 'text', text: 'plain' }], isError: false }, 'no data');
      t.same((await result(`"" t null`)).structuredContent, undefined, 'null data: no structuredContent');
      t.same((await result(`"" t '{"a":1}' '{"sessionId":"s1"}'`))._meta, { sessionId: 's1' }, 'META_JSON');
      t.same(
        await result(`"" 'text only' '{"a":1}'`, {}),
        { content: [{ type: 'text', text: 'text only' }], isError: false },
        'without UI support: the text alone',
      );
      t.match(await result(`"" t '{"a":1}' '[1]'`), { isError: true, content: [{ text: /must be a JSON object/ }] });
      if (full) t.match(await result(`"" t '{not json'`), { isError: true, content: [{ text: /Invalid JSON data/ }] });
      t.match(JSON.parse((await box.run(`mcp_result_with_ui_data "" t ''`, { tool, env: ui })).stdout), {
        isError: true,
        content: [{ text: 'mcp_result_with_ui_data needs DATA_JSON' }],
      });
      t.same(
        JSON.parse((await box.run(`mcp_result_with_ui_data "" t '{"k":[1]}'`, { tool, env: ui })).stdout)
          .structuredContent,
        { k: [1] },
      );
    });

    t.test('mcp_tool_meta_with_ui: _meta for a tool', async (t) => {
      const meta = async (args: string) =>
        JSON.parse((await box.run(`mcp_tool_meta_with_ui ${args}`, { tool })).stdout);
      t.same(await meta('ui://srv/dash'), { ui: { resourceUri: 'ui://srv/dash', visibility: ['model', 'app'] } });
      t.same(await meta(`'ui://srv/"q"' ' app , model '`), {
        ui: { resourceUri: 'ui://srv/"q"', visibility: ['app', 'model'] },
      });
      t.same((await meta('ui://s/x app')).ui.visibility, ['app']);
    });

    t.test(
      'mcp_ui_form and mcp_ui_table: pages from the server templates',
      { skip: binary ? false : 'dist/mcp-bash.cjs is not built' },
      async (t) => {
        const env = { MCPBASH_BIN: binary as string };
        const form = await box.run(
          `mcp_ui_form --title 'Log "Entry"' --field type:select:meeting,call,email --field notes:textarea ` +
            `--field when:date --field plain --submit-tool log-it --submit-label Save`,
          { tool, env },
        );
        t.equal(form.code, 0, form.stderr);
        t.match(form.stdout, /^<!DOCTYPE html>/);
        t.match(form.stdout, /<h2>Log &quot;Entry&quot;<\/h2>/);
        t.match(
          form.stdout,
          new RegExp(
            '<select id="field-type" name="type"><option value=""><\\/option><option ' +
              'value="meeting">meeting<\\/option><option value="call">call<\\/option><option ' +
              'value="email">email<\\/option><\\/select>',
          ),
        );
        t.match(
          form.stdout,
          /<label for="field-notes">Notes<\/label><textarea id="field-notes"/,
          'label: the name title-cased',
        );
        t.match(form.stdout, /<input type="date" id="field-when"/);
        t.match(form.stdout, /<input type="text" id="field-plain"/, 'no type: text');
        t.match(pageConfig(form.stdout), { submitTool: 'log-it', submitLabel: 'Save' });
        const table = await box.run(
          `printf '%s' '[{"name":"Ada","age":36}]' | mcp_ui_table --columns name,age --title People --data -`,
          { tool, env },
        );
        t.equal(table.code, 0, table.stderr);
        t.match(table.stdout, /<th scope="col">name<\/th><th scope="col">age<\/th>/);
        t.match(pageConfig(table.stdout), {
          rows: [{ name: 'Ada', age: 36 }],
          columns: [{ key: 'name', sortable: true }],
        });
        t.match(pageConfig((await box.run('mcp_ui_table --columns a', { tool, env })).stdout), {
          columns: [{ key: 'a' }],
        });
        t.match(
          (await box.run('mcp_ui_table --columns a', { tool, env })).stdout,
          /<h2>Data<\/h2>/,
          "1.x's default title",
        );
        const bad = await box.run('mcp_ui_form --colour red || echo "status $?"', { tool, env });
        t.match(bad.stdout, 'status 1');
        t.match(bad.stderr, /mcp_ui_form: unknown option --colour/);
        const missing = await box.run(`mcp_ui_table --columns a || echo "status $?"`, {
          tool,
          env: { MCPBASH_BIN: join(state, 'no-such-binary') },
        });
        t.match(missing.stdout, 'status 1');
        t.match(missing.stderr, /cannot run .*no-such-binary to render the data-table template \(set MCPBASH_BIN\)/);
        t.match(
          (await box.run(`mcp_ui_table --title ${sh("it's")} --columns a`, { tool, env })).stdout,
          /<h2>it&#39;s<\/h2>/,
        );
      },
    );
  });
}
