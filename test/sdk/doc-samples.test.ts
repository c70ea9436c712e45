/**
 * The samples of docs/SDK.md that are easy to get wrong, run as written against the SDK with
 * every JSON tool (jq, gojq, the built-in jq, minimal mode): a sample must do what its text
 * says on a host without jq too.
 */
import { mkdirSync, readFileSync, realpathSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import t from 'tap';
import { repoRoot } from '../helpers/paths.js';
import { jsonTools, sandbox } from '../helpers/sdk-harness.js';

const doc = readFileSync(join(repoRoot, 'docs', 'SDK.md'), 'utf8');

/** The lines of the first bash sample after the `### ` heading that starts with `heading`. */
function sampleLines(heading: string): string[] {
  const start = doc.indexOf(`\n### ${heading}`);
  if (start < 0) throw new Error(`docs/SDK.md has no heading "${heading}"`);
  const block = /```bash\n([\s\S]*?)```/.exec(doc.slice(start));
  if (!block) throw new Error(`no bash sample after "${heading}"`);
  return (block[1] as string).split('\n').filter((line) => line.trim() !== '');
}

for (const tool of jsonTools()) {
  t.test(`docs/SDK.md samples with ${tool.name}`, { skip: tool.skip ?? false }, async (t) => {
    t.test('the mcp_roots_list loop visits every root, the last one too', async (t) => {
      const box = sandbox(t);
      const dir = realpathSync(box.dir);
      const roots = ['one', 'two', 'three'].map((name) => {
        const root = join(dir, `root-${name}`);
        mkdirSync(root);
        writeFileSync(join(root, `in-${name}`), '');
        return root;
      });
      const run = await box.run(sampleLines('`mcp_roots_list`').join('\n'), { tool, roots });
      t.equal(run.code, 0, run.stderr);
      t.strictSame(run.stdout.split('\n').filter(Boolean), ['in-one', 'in-two', 'in-three']);
    });

    t.test('the mcp_result_success samples give a string id and a boolean done', async (t) => {
      const box = sandbox(t);
      const samples = sampleLines('`mcp_result_success');
      t.ok(samples.length > 0, 'there are samples');
      for (const sample of samples) {
        t.notMatch(sample, /(^|[\s(])jq\s/, `no bare jq: ${sample}`);
        // The JSON tool sample needs a JSON tool, which minimal mode has not (the text says so).
        if (tool.name === 'minimal' && sample.includes('MCPBASH_JSON_TOOL_BIN')) continue;
        const run = await box.run(`id='a "quoted" \\ id'\n${sample}`, { tool });
        t.equal(run.code, 0, `${sample}: ${run.stderr}`);
        const result = JSON.parse(run.stdout) as { structuredContent: unknown; isError: boolean };
        t.equal(result.isError, false, sample);
        t.strictSame(
          result.structuredContent,
          { success: true, result: { id: 'a "quoted" \\ id', done: true } },
          sample,
        );
      }
    });
  });
}
