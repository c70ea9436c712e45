import { existsSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import t from 'tap';
import { type SdkSandbox, sandbox } from '../helpers/sdk-harness.js';

/** Plays the server's side of the handshake: takes the request file, answers atomically. */
function fakeServer(box: SdkSandbox, answer: (request: Record<string, unknown>) => unknown) {
  const requests: Array<Record<string, unknown>> = [];
  const timer = setInterval(() => {
    if (!existsSync(box.files.elicitRequest)) return;
    const request = JSON.parse(readFileSync(box.files.elicitRequest, 'utf8')) as Record<string, unknown>;
    rmSync(box.files.elicitRequest);
    requests.push(request);
    const reply = answer(request);
    if (reply === undefined) return;
    writeFileSync(`${box.files.elicitResponse}.tmp`, JSON.stringify(reply));
    renameSync(`${box.files.elicitResponse}.tmp`, box.files.elicitResponse);
  }, 20);
  return { requests, stop: () => clearInterval(timer) };
}

const supported = (box: SdkSandbox) => ({
  env: {
    MCP_ELICIT_SUPPORTED: '1',
    MCP_ELICIT_REQUEST_FILE: box.files.elicitRequest,
    MCP_ELICIT_RESPONSE_FILE: box.files.elicitResponse,
  },
});

t.test('each helper sends its schema and returns the answer', async (t) => {
  const box = sandbox(t);
  const server = fakeServer(box, () => ({ action: 'accept', content: { ok: true } }));
  t.teardown(server.stop);
  const script = [
    `mcp_elicit 'Configure' '{"type":"object","properties":{"port":{"type":"integer"}}}'`,
    `mcp_elicit_url 'Sign in' 'https://example.com/login?x=1'`,
    `mcp_elicit_string 'Name?' 'name'`,
    `mcp_elicit_string 'Value?'`,
    `mcp_elicit_confirm 'Delete "x"?'`,
    `mcp_elicit_choice 'Env?' dev 'staging env' prod`,
    `mcp_elicit_titled_choice 'Quality?' 'high:High (1080p)' 'low:Low' plain`,
    `mcp_elicit_multi_choice 'Codecs?' h264 vp9`,
    `mcp_elicit_titled_multi_choice 'Outputs?' 'mp4:MP4 Video' mp3`,
  ]
    .map((line) => `${line}; echo " rc=$?"`)
    .join('\n');
  const run = await box.run(script, supported(box));
  t.equal(run.code, 0, run.stderr);
  t.equal(run.stdout, '{"action":"accept","content":{"ok":true}} rc=0\n'.repeat(9));
  t.same(server.requests, [
    { message: 'Configure', schema: { type: 'object', properties: { port: { type: 'integer' } } }, mode: 'form' },
    { message: 'Sign in', url: 'https://example.com/login?x=1', mode: 'url' },
    {
      message: 'Name?',
      schema: { type: 'object', properties: { name: { type: 'string' } }, required: ['name'] },
      mode: 'form',
    },
    {
      message: 'Value?',
      schema: { type: 'object', properties: { value: { type: 'string' } }, required: ['value'] },
      mode: 'form',
    },
    {
      message: 'Delete "x"?',
      schema: { type: 'object', properties: { confirmed: { type: 'boolean' } }, required: ['confirmed'] },
      mode: 'form',
    },
    {
      message: 'Env?',
      schema: {
        type: 'object',
        properties: { choice: { type: 'string', enum: ['dev', 'staging env', 'prod'] } },
        required: ['choice'],
      },
      mode: 'form',
    },
    {
      message: 'Quality?',
      schema: {
        type: 'object',
        properties: {
          choice: {
            type: 'string',
            oneOf: [
              { const: 'high', title: 'High (1080p)' },
              { const: 'low', title: 'Low' },
              { const: 'plain', title: 'plain' },
            ],
          },
        },
        required: ['choice'],
      },
      mode: 'form',
    },
    {
      message: 'Codecs?',
      schema: {
        type: 'object',
        properties: { choices: { type: 'array', items: { type: 'string', enum: ['h264', 'vp9'] } } },
        required: ['choices'],
      },
      mode: 'form',
    },
    {
      message: 'Outputs?',
      schema: {
        type: 'object',
        properties: {
          choices: {
            type: 'array',
            items: {
              anyOf: [
                { const: 'mp4', title: 'MP4 Video' },
                { const: 'mp3', title: 'mp3' },
              ],
            },
          },
        },
        required: ['choices'],
      },
      mode: 'form',
    },
  ]);
  t.notOk(existsSync(box.files.elicitResponse), 'the response file is consumed');
});

t.test('a decline from the client is still status 0', async (t) => {
  const box = sandbox(t);
  const server = fakeServer(box, () => ({ action: 'decline', content: null }));
  t.teardown(server.stop);
  const run = await box.run('mcp_elicit_confirm ok?; echo " rc=$?"', supported(box));
  t.equal(run.stdout, '{"action":"decline","content":null} rc=0\n');
});

t.test('unsupported, unconfigured, timeout and cancellation', async (t) => {
  const box = sandbox(t);
  const unsupported = await box.run('mcp_elicit_confirm ok? && rc=0 || rc=$?; echo " rc=$rc"');
  t.equal(unsupported.stdout, '{"action":"decline","content":null} rc=1\n');
  t.match(unsupported.stderr, /mcp_elicit: Client does not support elicitation/);
  const unconfigured = await box.run('mcp_elicit_confirm ok? && rc=0 || rc=$?; echo " rc=$rc"', {
    env: { MCP_ELICIT_SUPPORTED: '1' },
  });
  t.equal(unconfigured.stdout, '{"action":"error","content":null} rc=1\n');
  t.match(unconfigured.stderr, /Elicitation environment not configured/);

  const silent = fakeServer(box, () => undefined);
  const started = Date.now();
  const timeout = await box.run(
    `mcp_elicit q '{"type":"object","properties":{}}' 1 && rc=0 || rc=$?; echo " rc=$rc"`,
    supported(box),
  );
  silent.stop();
  t.equal(timeout.stdout, '{"action":"error","content":null} rc=1\n');
  t.match(timeout.stderr, /Timeout waiting for user response/);
  t.ok(Date.now() - started < 5000, 'the timeout argument is honoured');
  t.equal(silent.requests.length, 1);

  const byEnv = await box.run('mcp_elicit_url q https://x && rc=0 || rc=$?; echo " rc=$rc"', {
    env: { ...supported(box).env, MCPBASH_ELICITATION_TIMEOUT: '1' },
  });
  t.equal(byEnv.stdout, '{"action":"error","content":null} rc=1\n', 'MCPBASH_ELICITATION_TIMEOUT is the default');

  writeFileSync(box.files.cancel, '');
  const cancelled = await box.run('mcp_elicit_confirm ok? && rc=0 || rc=$?; echo " rc=$rc"', supported(box));
  t.equal(cancelled.stdout, '{"action":"cancel","content":null} rc=1\n');
  t.notOk(existsSync(box.files.elicitRequest), 'the pending request is withdrawn');
});

t.test('URL elicitation: the tool id, MCP_ELICIT_URL, and mcp_elicit_complete', async (t) => {
  const box = sandbox(t);
  const server = fakeServer(box, (request) =>
    request.mode === 'complete'
      ? { action: request.elicitationId === 'known' ? 'accept' : 'error', content: null }
      : { action: 'accept', content: {}, elicitationId: request.elicitationId },
  );
  t.teardown(server.stop);
  const files = {
    MCP_ELICIT_REQUEST_FILE: box.files.elicitRequest,
    MCP_ELICIT_RESPONSE_FILE: box.files.elicitResponse,
  };
  const shown = await box.run(
    [
      `mcp_elicit_url 'Sign in' 'https://x/?s=known' 5 known; echo " rc=$?"`,
      `mcp_elicit_complete known; echo "complete rc=$?"`,
      `mcp_elicit_complete other && rc=0 || rc=$?; echo "unknown rc=$rc"`,
    ].join('\n'),
    { env: { ...files, MCP_ELICIT_SUPPORTED: '1', MCP_ELICIT_URL: '1' } },
  );
  t.equal(
    shown.stdout,
    '{"action":"accept","content":{},"elicitationId":"known"} rc=0\ncomplete rc=0\nunknown rc=1\n',
    shown.stderr,
  );
  t.same(server.requests, [
    { message: 'Sign in', url: 'https://x/?s=known', mode: 'url', elicitationId: 'known' },
    { mode: 'complete', elicitationId: 'known' },
    { mode: 'complete', elicitationId: 'other' },
  ]);
  // MCP_ELICIT_URL=error: the request goes to the server (which fails the call) even though
  // the client takes no elicitation; nothing to complete there.
  const failing = await box.run(
    `mcp_elicit_url 'Sign in' https://x; echo " rc=$?"; mcp_elicit_complete known || echo no`,
    {
      env: { ...files, MCP_ELICIT_SUPPORTED: '0', MCP_ELICIT_URL: 'error' },
    },
  );
  t.match(failing.stdout, /^\{"action":"accept".* rc=0\nno\n$/);
  t.equal(server.requests.length, 4, 'the URL request was written, the completion was not');
});
