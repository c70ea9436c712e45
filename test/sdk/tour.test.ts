/**
 * The sdk-tour fixture calls every SDK function. Here it runs directly, with the environment
 * the server's own code builds for a tool (test/helpers/sdk-harness.ts), once per JSON tool;
 * test/integration/tools/sdk-tour.test.ts runs the same tool through the binary's tools/call.
 */
import { existsSync, readFileSync, realpathSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import t from 'tap';
import { jsonTools, sandbox, sh } from '../helpers/sdk-harness.js';
import { expectedTourSummary, tourProject } from '../helpers/sdk-tour.js';

const tool = join(tourProject, 'tools', 'sdk-tour', 'tool.sh');

for (const variant of jsonTools().filter((candidate) => candidate.name !== 'minimal')) {
  t.test(`the SDK tour with ${variant.name}`, { skip: variant.skip ?? false }, async (t) => {
    const box = sandbox(t);
    const root = realpathSync(box.dir);
    const run = await box.runPlain(`cd ${sh(tourProject)}; ${sh(tool)}`, {
      tool: variant,
      args: { name: 'Ada', count: 4, path: root },
      meta: { trace: 'abc' },
      progressToken: 'tour',
      roots: [root],
      timeoutMs: 120_000,
    });
    t.equal(run.code, 0, run.stderr);
    const result = JSON.parse(run.stdout) as {
      structuredContent: { success: boolean; result: Record<string, string> };
      isError: boolean;
    };
    t.equal(result.isError, false);
    const summary = result.structuredContent.result;
    t.match(summary, expectedTourSummary(root));
    t.same(JSON.parse(summary.truncate ?? ''), { result: [1, 2, 3], truncated: true, kept: 3, total: 9 });
    t.equal(JSON.parse(summary.download ?? '').error.type, 'host_blocked');
    t.match(JSON.parse(summary.resources ?? '[]'), [{ mimeType: 'text/plain', uri: null }]);
    t.equal(JSON.parse(summary.result_error ?? '').isError, true);
    const progress = box.lines('progress') as Array<{ params: { progress: number } }>;
    t.same(
      progress.map((line) => line.params.progress),
      [25, 50, 75, 100, 40],
    );
    const levels = (box.lines('log') as Array<{ params: { level: string } }>).map((line) => line.params.level);
    t.same(levels.slice(0, 5), ['info', 'debug', 'info', 'warning', 'error']);
    t.match(box.read('debug'), /sdk-tour debug-file line/);
  });
}

t.test("the tour's failure modes", async (t) => {
  const variant = jsonTools()[0];
  const box = sandbox(t);
  const fail = await box.runPlain(sh(tool), { tool: variant, args: { mode: 'fail' } });
  t.equal(fail.code, 1);
  t.same(JSON.parse(readFileSync(box.files.error, 'utf8')), {
    code: -32010,
    message: 'Tour failure on request',
    data: { mode: 'fail' },
  });
  const error = await box.runPlain(sh(tool), { tool: variant, args: { mode: 'error' } });
  t.equal(error.code, 0);
  t.match(JSON.parse(error.stdout), {
    isError: true,
    structuredContent: { error: { type: 'validation_error', hint: 'Call with mode=summary' } },
  });
  const missing = await box.runPlain(sh(tool), { tool: variant, args: {} });
  t.equal(missing.code, 1, 'a missing required argument is -32602');
  t.same(JSON.parse(readFileSync(box.files.error, 'utf8')), { code: -32602, message: 'name is required', data: null });
});

t.test("the tour's elicitation mode", async (t) => {
  const variant = jsonTools()[0];
  const box = sandbox(t);
  // The server's side: take each request, answer it atomically.
  const timer = setInterval(() => {
    if (!existsSync(box.files.elicitRequest)) return;
    const request = JSON.parse(readFileSync(box.files.elicitRequest, 'utf8')) as { mode: string };
    rmSync(box.files.elicitRequest);
    const answer =
      request.mode === 'url' ? { action: 'accept', content: null } : { action: 'accept', content: { confirmed: true } };
    writeFileSync(`${box.files.elicitResponse}.tmp`, JSON.stringify(answer));
    renameSync(`${box.files.elicitResponse}.tmp`, box.files.elicitResponse);
  }, 20);
  t.teardown(() => clearInterval(timer));
  const run = await box.runPlain(sh(tool), {
    tool: variant,
    args: { mode: 'elicit', name: 'x' },
    env: {
      MCP_ELICIT_SUPPORTED: '1',
      MCP_ELICIT_REQUEST_FILE: box.files.elicitRequest,
      MCP_ELICIT_RESPONSE_FILE: box.files.elicitResponse,
    },
    timeoutMs: 60_000,
  });
  t.equal(run.code, 0, run.stderr);
  const summary = JSON.parse(run.stdout).structuredContent.result as Record<string, string>;
  t.same(JSON.parse(summary.elicit ?? ''), { action: 'accept', content: { confirmed: true } });
});
