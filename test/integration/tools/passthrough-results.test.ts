import { CallToolResultSchema } from '@modelcontextprotocol/sdk/types.js';
import t, { type Test } from 'tap';
import { projectWithTools } from '../../helpers/fixtures.js';
import { startInProcess } from '../../helpers/in-process-server.js';
import { toolEnv } from '../../helpers/run-binary.js';

// A tool may print a CallToolResult of its own (original-behaviour §3.6 step 7); one that is
// not valid is sent as plain output instead (D268): clients validate results and would throw.

const valid = {
  content: [
    { type: 'text', text: 'hi', annotations: { audience: ['user'], priority: 0.5 } },
    { type: 'image', data: 'aGk=', mimeType: 'image/png' },
    { type: 'audio', data: 'aGk=', mimeType: 'audio/wav' },
    { type: 'resource_link', uri: 'file:///a.txt', name: 'a' },
    { type: 'resource', resource: { uri: 'file:///b.txt', text: 'b' } },
    { type: 'resource', resource: { uri: 'file:///c.bin', blob: 'Yw==', mimeType: 'application/octet-stream' } },
  ],
  isError: false,
};
const printed: Record<string, unknown> = {
  valid,
  bogus: { content: [{ type: 'bogus' }], isError: 'yes' },
  'no-text': { content: [{ type: 'text' }], isError: false },
  'no-contents': { content: [{ type: 'resource', resource: { uri: 'x:' } }], isError: true },
};

function project(t: Test): string {
  const tools: Record<string, string> = Object.fromEntries(
    Object.entries(printed).map(([name, value]) => [name, `printf '%s' '${JSON.stringify(value)}'`]),
  );
  tools.failing = `printf '%s' '${JSON.stringify(printed.bogus)}'\nexit 3`;
  return projectWithTools(t, 'passthrough', tools);
}

t.test('a valid CallToolResult of every content kind passes through unchanged', async (t) => {
  const server = await startInProcess({ projectRoot: project(t), env: toolEnv() });
  t.teardown(() => server.close());
  const { result } = await server.request('tools/call', { name: 'valid' });
  t.same(result, { ...valid, _meta: { exitCode: 0 } });
  t.ok(CallToolResultSchema.safeParse(result).success, 'the official SDK accepts it');
});

t.test('an invalid one is sent as plain output, with a warning naming its first problem', async (t) => {
  const server = await startInProcess({ projectRoot: project(t), env: toolEnv() });
  t.teardown(() => server.close());
  for (const name of ['bogus', 'no-text', 'no-contents']) {
    const { result } = await server.request('tools/call', { name });
    const stdout = JSON.stringify(printed[name]);
    t.notOk(CallToolResultSchema.safeParse(printed[name]).success, `${name}: the official SDK rejects it as printed`);
    t.same(
      result,
      {
        content: [{ type: 'text', text: stdout }],
        isError: false,
        structuredContent: printed[name],
        _meta: { exitCode: 0 },
      },
      `${name}: its text, and the object as structuredContent`,
    );
    t.ok(CallToolResultSchema.safeParse(result).success, `${name}: the official SDK accepts the answer`);
  }
  t.match(
    server.stderr,
    /bogus: its output looks like a CallToolResult but is not one \(\/content\/0\/type must be equal to one of/,
  );
  t.match(server.stderr, /no-text: .*\(\/content\/0 must have required property 'text'\)/);
  t.match(server.stderr, /no-contents: .*\(\/content\/0\/resource must have required property 'text'\)/);
});

t.test('a failing tool that prints an invalid one gets the usual failure result', async (t) => {
  const server = await startInProcess({ projectRoot: project(t), env: toolEnv() });
  t.teardown(() => server.close());
  const { result } = await server.request('tools/call', { name: 'failing' });
  t.match(result, { isError: true, content: [{ type: 'text', text: /^Tool 'failing' failed with exit status 3/ }] });
  t.ok(CallToolResultSchema.safeParse(result).success, 'the official SDK accepts it');
});
