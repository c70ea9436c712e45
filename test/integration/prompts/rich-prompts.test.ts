import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import t from 'tap';
import { sharedCliEnv } from '../../helpers/cli-projects.js';
import { startInitialized } from '../../helpers/mcp-process.js';
import { eventually, isGroupAlive, processGroupOf, waitForExit } from '../../helpers/processes.js';
import { toolEnv } from '../../helpers/run-binary.js';
import { scratchDir } from '../../helpers/scratch.js';
import { sdkScript } from '../../helpers/sdk-tools-project.js';
import { validateJson } from '../../helpers/validate-report.js';

// Prompts whose answer is several messages with any content (D295): declared in the
// metadata (files read and placeholders filled in when the prompt is got) or printed by a
// prompt script; 1.x templates beside them answer as before.
const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8DwHwAFBQIAX8jx0gAAAABJRU5ErkJggg==',
  'base64',
);
const WAV = Buffer.from([0x52, 0x49, 0x46, 0x46, 0, 0xff, 0x0a]);
const BLOB = Buffer.from([0, 1, 2, 0xfe, 0xff]);

const topic = { type: 'object', properties: { topic: { type: 'string' } }, required: ['topic'] };

const files: Record<string, string | Buffer> = {
  'server.d/server.meta.json': '{"name":"rich-prompts"}',
  'prompts/legacy.txt': 'Old {{topic}} template\n',
  'prompts/legacy.meta.json': JSON.stringify({ name: 'legacy', arguments: topic }),
  'prompts/spaced.txt': 'About {{ topic }}',
  'prompts/spaced.meta.json': JSON.stringify({ name: 'spaced', arguments: topic }),
  'prompts/media/pic.png': PNG,
  'prompts/media/tone.wav': WAV,
  'prompts/media/data.bin': BLOB,
  'prompts/media/notes.md': '# Notes on {{topic}}\n',
  'prompts/reply.txt': 'Here is what I know about {{topic}}.',
  'prompts/describe.meta.json': JSON.stringify({
    name: 'describe',
    description: 'Everything a prompt can carry',
    arguments: {
      type: 'object',
      properties: { topic: { type: 'string' }, tone: { type: 'string' } },
      required: ['topic'],
    },
    messages: [
      { content: { type: 'text', text: 'Tell me about {{topic}} ({{tone}}) {{unknown}}' } },
      { role: 'user', content: { type: 'image', path: 'media/pic.png' } },
      { role: 'user', content: { type: 'audio', path: 'media/tone.wav', mimeType: 'audio/x-wav' } },
      {
        role: 'user',
        content: { type: 'resource', resource: { uri: 'mem://notes/{{topic}}' }, path: 'media/notes.md' },
      },
      { role: 'user', content: { type: 'resource', resource: { uri: 'mem://data' }, path: 'media/data.bin' } },
      { role: 'user', content: { type: 'resource_link', uri: 'mem://{{topic}}', name: '{{topic}}-link' } },
      { role: 'assistant', content: { type: 'text', path: 'reply.txt' }, _meta: { ignored: true } },
    ],
  }),
  'prompts/scripted.meta.json': JSON.stringify({ name: 'scripted', arguments: topic, script: 'scripted.sh' }),
  'prompts/scripted.sh': sdkScript(
    [
      `mcp_prompt_message user "Explain $(mcp_args_get '.topic') to $MCP_PROMPT_NAME"`,
      'mcp_prompt_message assistant "$(mcp_content_image "$MCPBASH_PROMPTS_DIR/media/pic.png")"',
      'mcp_prompt_message user "$MCP_PROMPT_ARGS_JSON"',
      'mcp_prompt_message user "$(printf \'%s\' "$MCP_PROMPT_METADATA" | "$MCPBASH_JSON_TOOL_BIN" -r .script)"',
    ].join('\n'),
  ),
  'prompts/whole.meta.json': JSON.stringify({ name: 'whole', description: 'static', script: 'whole.sh' }),
  'prompts/whole.sh': sdkScript(
    `printf '%s' '{"description":"from the script",' ` +
      `'"messages":[{"role":"user","content":{"type":"text","text":"hi"}}]}'`,
  ),
  'prompts/garbage.meta.json': JSON.stringify({ name: 'garbage', script: 'garbage.sh' }),
  'prompts/garbage.sh': sdkScript(`echo '{"role":"system","content":{"type":"text","text":"x"}}'`),
  'prompts/failing.meta.json': JSON.stringify({ name: 'failing', script: 'failing.sh' }),
  'prompts/failing.sh': sdkScript('echo "no such topic" >&2; exit 3'),
  'prompts/slow.meta.json': JSON.stringify({ name: 'slow', script: 'slow.sh', timeoutSecs: 1 }),
  'prompts/slow.sh': sdkScript('sleep 30'),
  // Unusable: the server skips them, validate names the field.
  'prompts/no-data.meta.json': JSON.stringify({ name: 'no-data', messages: [{ content: { type: 'image' } }] }),
  'prompts/outside.meta.json': JSON.stringify({
    name: 'outside',
    messages: [{ content: { type: 'text', path: '../../../../etc/passwd' } }],
  }),
  'prompts/both.meta.json': JSON.stringify({ name: 'both', path: 'reply.txt', script: 'whole.sh' }),
  'prompts/bad-role.meta.json': JSON.stringify({
    name: 'bad-role',
    messages: [{ role: 'system', content: { type: 'text', text: 'x' } }],
  }),
};

function project(tree: Record<string, string | Buffer> = files): string {
  const root = scratchDir('mcpbash-rich-prompts-');
  for (const [rel, content] of Object.entries(tree)) {
    mkdirSync(dirname(join(root, rel)), { recursive: true });
    writeFileSync(join(root, rel), content, { mode: rel.endsWith('.sh') ? 0o755 : 0o644 });
  }
  return root;
}

t.test('rich prompts through the binary', async (t) => {
  const root = project();
  const server = await startInitialized({ projectRoot: root, env: toolEnv() });
  t.teardown(() => server.close());
  const get = (name: string, args?: Record<string, unknown>) =>
    server.request('prompts/get', { name, ...(args ? { arguments: args } : {}) });

  t.test('prompts/list has the usable prompts only', async (t) => {
    const { result } = await server.request('prompts/list');
    const names = (result as { prompts: Array<{ name: string }> }).prompts.map((prompt) => prompt.name);
    t.same(names, ['describe', 'failing', 'garbage', 'legacy', 'scripted', 'slow', 'spaced', 'whole']);
  });

  t.test('declared messages: files read, placeholders filled in, MIME types from the files', async (t) => {
    const { result } = await get('describe', { topic: 'bees' });
    t.same(result, {
      description: 'Everything a prompt can carry',
      arguments: { topic: 'bees' },
      messages: [
        { role: 'user', content: { type: 'text', text: 'Tell me about bees () {{unknown}}' } },
        { role: 'user', content: { type: 'image', data: PNG.toString('base64'), mimeType: 'image/png' } },
        { role: 'user', content: { type: 'audio', data: WAV.toString('base64'), mimeType: 'audio/x-wav' } },
        {
          role: 'user',
          content: {
            type: 'resource',
            resource: { uri: 'mem://notes/bees', mimeType: 'text/markdown', text: '# Notes on {{topic}}\n' },
          },
        },
        {
          role: 'user',
          content: {
            type: 'resource',
            resource: { uri: 'mem://data', mimeType: 'application/octet-stream', blob: BLOB.toString('base64') },
          },
        },
        { role: 'user', content: { type: 'resource_link', uri: 'mem://bees', name: 'bees-link' } },
        { role: 'assistant', content: { type: 'text', text: 'Here is what I know about bees.' } },
      ],
    });
    t.match(await get('describe'), { error: { code: -32602, message: /"topic"/ } }, 'a required argument is missing');
  });

  t.test('a 1.x template answers as before', async (t) => {
    const { result } = await get('legacy', { topic: 'ants' });
    t.same(result, {
      messages: [{ role: 'user', content: { type: 'text', text: 'Old ants template\n' } }],
      text: 'Old ants template\n',
      arguments: { topic: 'ants' },
    });
  });

  t.test('a prompt script prints its messages (mcp_prompt_message, mcp_args_get, its environment)', async (t) => {
    const { result } = await get('scripted', { topic: 'tides' });
    t.same(result, {
      arguments: { topic: 'tides' },
      messages: [
        { role: 'user', content: { type: 'text', text: 'Explain tides to scripted' } },
        { role: 'assistant', content: { type: 'image', data: PNG.toString('base64'), mimeType: 'image/png' } },
        { role: 'user', content: { type: 'text', text: '{"topic":"tides"}' } },
        { role: 'user', content: { type: 'text', text: 'scripted.sh' } },
      ],
    });
    t.match(await get('scripted'), { error: { code: -32602, message: /"topic"/ } }, 'checked before the script runs');
    t.same((await get('whole')).result, {
      description: 'from the script',
      arguments: {},
      messages: [{ role: 'user', content: { type: 'text', text: 'hi' } }],
    });
  });

  t.test('a script that fails, prints no messages or hangs: -32603 saying why', async (t) => {
    t.match(await get('failing'), { error: { code: -32603, message: 'no such topic' } });
    t.match(await get('garbage'), {
      error: { code: -32603, message: /garbage\.sh: its output is not prompt messages \(.*role/ },
    });
    t.match(await get('slow'), { error: { code: -32603, message: /timed out after 1s/ } });
  });

  t.test('validate names what makes a prompt unusable', async (t) => {
    const { code, report } = await validateJson(t, sharedCliEnv(), root);
    t.equal(code, 1);
    const errors = report.messages
      .filter((message) => message.level === 'error')
      .map(({ file, field, message }) => ({ file, field, message }));
    t.match(errors, [
      { file: 'prompts/bad-role.meta.json', field: '/messages/0/role' },
      {
        file: 'prompts/both.meta.json',
        field: '/script',
        message: /"path" and "script" cannot be used together/,
      },
      { file: 'prompts/no-data.meta.json', field: '/messages/0/content', message: /needs "path", or "data"/ },
      { file: 'prompts/outside.meta.json', field: '/messages/0/content', message: /does not exist inside the project/ },
    ]);
    t.equal(errors.length, 4);
    t.ok(
      report.messages.some(
        (message) => message.level === 'warning' && /\{\{unknown\}\} is not a declared argument/.test(message.message),
      ),
      'an undeclared placeholder in a message warns',
    );
    t.match(
      report.messages.find((message) => message.file === 'prompts/spaced.txt'),
      { level: 'warning', message: '{{ topic }} is not substituted: write placeholders without spaces' },
      'the server fills in {{topic}} only',
    );
    t.notOk(
      report.messages.some((message) => /not a prompt/.test(message.message)),
      'files that messages and scripts name are part of their prompt',
    );
  });
});

t.test('register.json prompts with messages: placeholders filled in, files read from prompts/', async (t) => {
  const root = project({
    'server.d/server.meta.json': '{"name":"registered-prompts"}',
    'server.d/register.json': JSON.stringify({
      version: 1,
      prompts: [
        {
          name: 'critique',
          description: 'Critique a picture',
          role: 'assistant',
          arguments: topic,
          messages: [
            { role: 'user', content: { type: 'text', text: 'Critique this {{topic}}' } },
            { role: 'user', content: { type: 'image', path: 'media/pic.png' } },
            { content: { type: 'text', path: 'reply.txt' } },
          ],
        },
      ],
    }),
    'prompts/media/pic.png': PNG,
    'prompts/reply.txt': 'Here is what I know about {{topic}}.',
    'prompts/legacy.txt': 'Old {{topic}} template\n',
    'prompts/legacy.meta.json': JSON.stringify({ name: 'legacy', arguments: topic }),
  });
  const server = await startInitialized({ projectRoot: root, env: toolEnv() });
  t.teardown(() => server.close());
  const { result } = await server.request('prompts/list');
  t.same(
    (result as { prompts: Array<{ name: string }> }).prompts.map((prompt) => prompt.name),
    ['critique'],
    'register.json replaces discovery',
  );
  t.same((await server.request('prompts/get', { name: 'critique', arguments: { topic: 'sunset' } })).result, {
    description: 'Critique a picture',
    arguments: { topic: 'sunset' },
    messages: [
      { role: 'user', content: { type: 'text', text: 'Critique this sunset' } },
      { role: 'user', content: { type: 'image', data: PNG.toString('base64'), mimeType: 'image/png' } },
      { role: 'assistant', content: { type: 'text', text: 'Here is what I know about sunset.' } },
    ],
  });
  t.match(
    await server.request('prompts/get', { name: 'critique' }),
    { error: { code: -32602, message: /"topic"/ } },
    'a required argument is missing',
  );
});

t.test('a cancelled prompts/get stops its script: no response, the server still answers', async (t) => {
  const root = project({
    'server.d/server.meta.json': '{"name":"cancelled-prompt"}',
    // Well within its own timeout: only the cancellation can stop it in time.
    'prompts/hang.meta.json': JSON.stringify({ name: 'hang', script: 'hang.sh', timeoutSecs: 120 }),
    'prompts/hang.sh': sdkScript('printf \'%s\' "$$" >hang.pid.tmp && mv hang.pid.tmp hang.pid\nsleep 120'),
  });
  const server = await startInitialized({ projectRoot: root, env: toolEnv() });
  t.teardown(() => server.close());
  const id = 'prompt-to-cancel';
  server.send({ jsonrpc: '2.0', id, method: 'prompts/get', params: { name: 'hang' } });
  const pidFile = join(root, 'hang.pid');
  t.ok(await eventually(() => existsSync(pidFile), 10_000), 'the script started (in the project root)');
  const pid = Number(readFileSync(pidFile, 'utf8'));
  const group = processGroupOf(pid) as number;
  server.notify('notifications/cancelled', { requestId: id, reason: 'user pressed stop' });
  t.ok(await waitForExit(pid, 5000), 'the script is gone');
  t.ok(await eventually(() => !isGroupAlive(group), 5000), 'and its sleep with it');
  t.same((await server.request('ping')).result, {}, 'the server still answers');
  await server.close(); // all it wrote is in
  t.notOk(
    server.messages.some((message) => message.id === id),
    'no response at all for the cancelled id',
  );
});
