import t from 'tap';
import { fixtureProject } from '../../helpers/fixtures.js';
import { startInProcess } from '../../helpers/in-process-server.js';
import type { McpSession } from '../../helpers/mcp-session.js';
import { toolEnv } from '../../helpers/run-binary.js';

type Result = {
  content: Array<Record<string, unknown>>;
  structuredContent?: unknown;
  isError?: boolean;
  _meta?: Record<string, unknown>;
};

let server: McpSession;
let project: string;
t.before(async () => {
  project = fixtureProject('tools');
  server = await startInProcess({ projectRoot: project, env: toolEnv({ MCPBASH_ENV_PAYLOAD_THRESHOLD: '4096' }) });
});
t.teardown(() => server.close());

const call = async (name: string, args?: unknown, extra: Record<string, unknown> = {}) =>
  server.request('tools/call', { name, ...(args === undefined ? {} : { arguments: args }), ...extra });

t.test('plain text stdout is the text content, untrimmed', async (t) => {
  const result = (await call('echo-text')).result as Result;
  t.same(result, {
    content: [{ type: 'text', text: 'plain text, not trimmed  \n' }],
    isError: false,
    _meta: { exitCode: 0 },
  });
});

t.test('JSON object stdout becomes structuredContent plus its text; args and _meta reach the tool', async (t) => {
  const result = (await call('echo-json', { text: 'hi', count: 2 }, { _meta: { traceId: 'abc' } })).result as Result;
  t.same(result.structuredContent, {
    args: { text: 'hi', count: 2 },
    via: 'env',
    tool: 'echo-json',
    meta: { traceId: 'abc' },
  });
  t.equal(result.content[0]?.type, 'text');
  t.same(JSON.parse(result.content[0]?.text as string), result.structuredContent);
  t.equal(result.isError, false);
});

t.test('arguments above MCPBASH_ENV_PAYLOAD_THRESHOLD arrive in MCP_TOOL_ARGS_FILE', async (t) => {
  const text = 'x'.repeat(10_000);
  const result = (await call('echo-json', { text })).result as Result;
  t.match(result.structuredContent, { via: 'file', args: { text } });
});

t.test('a CallToolResult on stdout passes through, with exitCode merged into its _meta', async (t) => {
  const result = (await call('passthrough')).result as Result;
  t.same(result, {
    content: [{ type: 'text', text: 'from the envelope' }],
    structuredContent: { ok: true },
    isError: false,
    _meta: { custom: 'kept', exitCode: 0 },
  });
});

t.test('the error file (mcp_fail) is a JSON-RPC error with exactly its code, message and data', async (t) => {
  t.same((await call('error-file')).error, { code: -32050, message: 'custom failure', data: { field: 'x' } });
});

t.test('a non-zero exit is an isError result naming the failure, with exitCode and the stderr tail (D1)', async (t) => {
  const response = await call('exit-nonzero');
  t.notOk(response.error, 'not a protocol error');
  t.same(response.result, {
    content: [{ type: 'text', text: "Tool 'exit-nonzero' failed with exit status 3: first problem line" }],
    isError: true,
    _meta: { exitCode: 3, stderr: 'first problem line\nsecond line\n' },
  });
});

t.test('1.x style: an mcp_fail object printed on stdout with a non-zero exit is that JSON-RPC error', async (t) => {
  t.same((await call('legacy-error-json')).error, { code: -32099, message: 'legacy failure', data: 'd' });
});

t.test('outputSchema: conforming output passes; violations are -32603 naming the field', async (t) => {
  t.match((await call('outputs-schema', { mode: 'good' })).result, {
    structuredContent: { count: 3, label: 'x' },
    isError: false,
  });
  const badType = await call('outputs-schema', { mode: 'bad-type' });
  t.match(badType.error, {
    code: -32603,
    message: /outputSchema: \/count must be integer/,
    data: { tool: 'outputs-schema', errors: [{ path: '/count', message: 'must be integer' }] },
  });
  t.match((await call('outputs-schema', { mode: 'missing' })).error, {
    code: -32603,
    message: /must have required property 'count'/,
  });
  t.match((await call('outputs-schema', { mode: 'not-json' })).error, {
    code: -32603,
    message: 'Tool output is not valid JSON for declared outputSchema',
    data: { tool: 'outputs-schema', hint: /declares an outputSchema, so it must print a JSON object/ },
  });
});

t.test('an error envelope its outputSchema rejects keeps its text but not its structuredContent', async (t) => {
  const result = (await call('outputs-schema', { mode: 'error-envelope' })).result as Result;
  t.equal(result.isError, true);
  t.same(result.content, [{ type: 'text', text: 'nope' }]);
  t.notOk('structuredContent' in result, 'the official client would reject it otherwise');
});

t.test(
  'inputSchema violations under 2025-11-25: a tool result with the message, for the model (SEP-1303)',
  async (t) => {
    const result = (await call('echo-json', { count: -1, shade: 'x' })).result as Result;
    t.equal(result.isError, true);
    t.equal(result.content.length, 1);
    t.match(result.content[0], { type: 'text', text: /^Invalid arguments for tool 'echo-json': / });
    t.match(result.content[0]?.text, /missing required argument 'text'/);
    t.match(result.content[0]?.text, /argument 'count' must be >= 0/);
    t.notOk('structuredContent' in result);
    t.match((await call('no-such-tool')).error, { code: -32602 }, 'an unknown tool stays a protocol error');
  },
);

t.test('inputSchema violations before 2025-11-25 are -32602 in words, each naming its argument in data', async (t) => {
  const older = await startInProcess({ projectRoot: project, env: toolEnv(), protocolVersion: '2025-06-18' });
  t.teardown(() => older.close());
  const callOlder = (name: string, args: unknown) => older.request('tools/call', { name, arguments: args });
  const response = await callOlder('echo-json', { count: -1, shade: 'x' });
  t.equal(response.error?.code, -32602);
  t.match(response.error?.message, /^Invalid arguments for tool 'echo-json': /);
  t.match(response.error?.message, /missing required argument 'text'/);
  t.match(response.error?.message, /argument 'count' must be >= 0/);
  t.notMatch(response.error?.message, /\(root\)|must have required property/, 'no validator jargon');
  const errors = (response.error?.data as { errors: Array<{ field: string }> } | undefined)?.errors ?? [];
  t.same(
    [...errors].sort((a, b) => a.field.localeCompare(b.field)),
    [
      { message: "argument 'count' must be >= 0", field: 'count', path: '/count', keyword: 'minimum' },
      { message: "missing required argument 'text'", field: 'text', path: '/', keyword: 'required' },
    ],
  );
  const typed = await callOlder('echo-json', { text: 'a', count: 'many' });
  t.match(typed.error, { code: -32602, message: /argument 'count' must be integer/ });
});

t.test('request validation order: name, arguments, lookup', async (t) => {
  t.same((await server.request('tools/call', {})).error, {
    code: -32602,
    message: 'Tool name is required',
    data: { field: 'name' },
  });
  t.match((await call('echo-text', [1, 2])).error, { code: -32602, message: 'Invalid arguments JSON' });
  t.match((await call('echo-text', 'text')).error, { code: -32602, message: 'Invalid arguments JSON' });
  const listHint = "tools/list shows the tools; 'mcp-bash validate' lists them and says why a script is not one";
  t.same((await call('no-such-tool')).error, {
    code: -32602,
    message: "Tool 'no-such-tool' not found",
    data: { hint: listHint },
  });
  t.same(
    (await call('echo-txet')).error,
    {
      code: -32602,
      message: "Tool 'echo-txet' not found",
      data: { hint: `Did you mean 'echo-text'? ${listHint}`, didYouMean: 'echo-text' },
    },
    'a near miss names the tool it probably meant',
  );
});

t.test('embedded resources: JSON list, text vs binary, and only files inside the roots', async (t) => {
  const result = (await call('embed')).result as Result;
  t.equal(result.content[0]?.text, 'attached');
  const resources = result.content.filter((item) => item.type === 'resource') as unknown as Array<{
    type: string;
    resource: Record<string, string>;
  }>;
  t.equal(resources.length, 2, '/etc/hostname (outside the roots) and a missing file are skipped');
  t.same(
    result.content.slice(3),
    [
      {
        type: 'text',
        text:
          'Attachment /etc/hostname was left out: outside the MCP roots (files in MCP_TOOL_CALL_DIR can ' +
          'always be attached)',
      },
      { type: 'text', text: `Attachment ${project}/data/missing.txt was left out: not found or not readable` },
    ],
    'each file left out is named in the result, in its place',
  );
  t.match(resources[0], {
    type: 'resource',
    resource: { mimeType: 'text/plain', text: 'hello from a data file\n', uri: /^file:\/\/.*\/data\/note\.txt$/ },
  });
  t.match(resources[1], { type: 'resource', resource: { mimeType: 'image/png', uri: /image\.png$/ } });
  t.equal(
    Buffer.from(resources[1]?.resource.blob ?? '', 'base64')
      .subarray(0, 4)
      .toString('latin1'),
    '\x89PNG',
  );
  t.notOk('text' in (resources[1]?.resource ?? {}), 'binary travels as blob');
});

t.test('embedded resources: TSV lines with an explicit uri', async (t) => {
  const result = (await call('embed', { format: 'tsv' })).result as Result;
  const resources = result.content.slice(1) as Array<{ resource: Record<string, string> }>;
  t.equal(resources.length, 2);
  t.match(resources[1]?.resource, { uri: 'mcp://custom/image', mimeType: 'image/png' });
});

t.test('a tool reading stdin gets EOF at once', async (t) => {
  t.match((await call('reads-stdin')).result, { content: [{ text: 'stdin had 0 bytes' }] });
});

t.test('a script without exec bit or shebang runs through bash; inline-header tools run too', async (t) => {
  t.match((await call('noexec')).result, { content: [{ text: /^ran via bash \d+$/ }] });
  t.match((await call('inline-header', { x: 1 })).result, { content: [{ text: 'inline' }] });
});

t.test('the tool environment: the documented variables, in minimal mode nothing else of ours', async (t) => {
  const text = ((await call('env-dump')).result as Result).content[0]?.text as string;
  const names = text.split('\n').filter(Boolean);
  for (const name of [
    'MCP_SDK',
    'MCP_TOOL_NAME',
    'MCP_TOOL_PATH',
    'MCP_TOOL_ARGS_JSON',
    'MCP_TOOL_META_JSON',
    'MCP_TOOL_METADATA_JSON',
    'MCP_TOOL_ERROR_FILE',
    'MCP_TOOL_RESOURCES_FILE',
    'MCP_PROGRESS_STREAM',
    'MCP_PROGRESS_TOKEN',
    'MCP_LOG_STREAM',
    'MCP_CANCEL_FILE',
    'MCP_ELICIT_SUPPORTED',
    'MCP_ROOTS_JSON',
    'MCP_ROOTS_PATHS',
    'MCP_ROOTS_COUNT',
    'MCPBASH_JSON_TOOL',
    'MCPBASH_JSON_TOOL_BIN',
    'MCPBASH_MODE',
    'MCPBASH_PROJECT_ROOT',
    'MCPBASH_HOME',
    'MCPBASH_TOOLS_DIR',
    'MCPBASH_FRAMEWORK_VERSION',
    'MCPBASH_SERVER_NAME',
    'MCPBASH_WORKER_KEY',
    'MCPBASH_STATE_DIR',
    'MCPBASH_DEBUG_LOG',
    'PATH',
    'HOME',
    'TMPDIR',
    'LANG',
  ]) {
    t.ok(names.includes(name), `${name} is set`);
  }
  t.notOk(names.includes('USER'), 'ordinary variables of the server are not passed in minimal mode');
});
