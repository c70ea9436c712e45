/**
 * The example projects shipped in assets/examples: each one, copied to a temporary
 * directory, passes `validate` and does over MCP what its README says it demonstrates.
 * Every example directory needs a scenario here, and every tool it lists must be called.
 */
import { existsSync, readdirSync, readFileSync, realpathSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import t, { type Test } from 'tap';
import { copyProject } from '../../helpers/fixtures.js';
import { type McpProcess, type Message, startInitialized } from '../../helpers/mcp-process.js';
import { repoRoot } from '../../helpers/paths.js';
import { isolatedEnv, runBinary, toolEnv } from '../../helpers/run-binary.js';

// Responses are checked with t.match/t.same; a loose type keeps the assertions readable.
type Json = Record<string, any>;

const examplesDir = join(repoRoot, 'assets', 'examples');
const exampleIds = readdirSync(examplesDir, { withFileTypes: true })
  .filter((entry) => entry.isDirectory())
  .map((entry) => entry.name)
  .sort();

/** What this run may not create or change in the source tree: files a served example writes. */
const GENERATED = ['.registry', 'reports', 'config.json'];

/** Each generated path of each example: its mtime, or null when absent. */
function generatedState(): Map<string, number | null> {
  const state = new Map<string, number | null>();
  for (const id of exampleIds)
    for (const name of GENERATED) {
      const path = join(examplesDir, id, name);
      state.set(path, existsSync(path) ? statSync(path).mtimeMs : null);
    }
  return state;
}

/**
 * The README's first command serves 00-hello-tool in place, which writes its .registry/;
 * its second is `npm test`. Both orders must work, any number of times: serve it in place
 * first (as a user would have), then run every scenario with that cache in the tree.
 */
async function serveHelloInPlace(): Promise<void> {
  const init = {
    jsonrpc: '2.0',
    id: 1,
    method: 'initialize',
    params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'readme', version: '1' } },
  };
  const input = [
    init,
    { jsonrpc: '2.0', method: 'notifications/initialized' },
    { jsonrpc: '2.0', id: 2, method: 'tools/list' },
  ]
    .map((message) => JSON.stringify(message))
    .join('\n');
  await runBinary([], {
    env: toolEnv({ MCPBASH_PROJECT_ROOT: join(examplesDir, '00-hello-tool') }),
    input: `${input}\n`,
  });
}

const helloRegistry = join(examplesDir, '00-hello-tool', '.registry');
const helloRegistryExisted = existsSync(helloRegistry);
await serveHelloInPlace();
// Taken after the README command: only what the scenarios below do is checked.
const before = generatedState();
t.teardown(() => {
  // Leave the tree as it was found: the cache stays only if the user's own run had made it.
  if (!helloRegistryExisted) rmSync(helloRegistry, { recursive: true, force: true });
});

interface Context {
  readonly t: Test;
  readonly server: McpProcess;
  readonly project: string;
  /** tools/call; records the tool as exercised when the call produced a result. */
  call(name: string, args?: Json, extra?: Json): Promise<Message>;
}

interface Scenario {
  readonly env?: NodeJS.ProcessEnv;
  readonly capabilities?: Record<string, unknown>;
  run(ctx: Context): Promise<void>;
}

const result = (response: Message): Json => response.result as Json;
/** A client that renders MCP Apps views. */
const UI_CAPABILITIES = { extensions: { 'io.modelcontextprotocol/ui': { mimeTypes: ['text/html;profile=mcp-app'] } } };
/** The `result` part of an mcp_result_success envelope. */
const payload = (response: Message): Json => (response.result as Json).structuredContent.result as Json;
const toolError = (response: Message): Json => (response.result as Json).structuredContent.error as Json;

function logsOf(server: McpProcess, logger: string, from = 0): Json[] {
  return server
    .notifications('notifications/message')
    .slice(from)
    .map((m) => m.params as Json)
    .filter((params) => params.logger === logger);
}

/** Answers the next elicitation/create request (the `index`-th of the session) with `reply`. */
async function answerElicitation(server: McpProcess, index: number, reply: Json): Promise<Json> {
  await server.waitFor(
    () => server.messages.filter((m) => m.method === 'elicitation/create').length > index,
    10_000,
    `elicitation #${index + 1}`,
  );
  const asked = server.messages.filter((m) => m.method === 'elicitation/create')[index] as Message;
  server.send({ jsonrpc: '2.0', id: asked.id, ...reply });
  return asked.params as Json;
}

const scenarios: Record<string, Scenario> = {
  '00-hello-tool': {
    async run({ t, call }) {
      t.same(payload(await call('hello', { name: 'Ada' })), { message: 'Hello, Ada!' });
    },
  },

  '01-args-and-validation': {
    async run({ t, call }) {
      t.same(payload(await call('example-repeat', { text: 'hi', count: 2, uppercase: true, separator: '-' })), {
        result: 'HI-HI',
        count: 2,
        uppercase: true,
      });
      t.same(
        payload(await call('example-repeat', { text: 'ok' })),
        { result: 'ok ok ok', count: 3, uppercase: false },
        'defaults',
      );
      t.match(
        (await call('example-repeat', { text: 'hi', count: 50 })).error,
        { code: -32602, message: '.count must be <= 10' },
        'mcp_args_int --max',
      );
      t.match(
        (await call('example-repeat', { text: '' })).error,
        { code: -32602, message: 'text is required: pass the text to repeat' },
        'mcp_args_require',
      );
      t.match(
        (await call('example-repeat', { text: '   ' })).error,
        { code: -32602, message: 'text must contain a non-space character', data: { field: 'text' } },
        'mcp_fail_invalid_args',
      );
      t.match(
        result(await call('example-repeat', { count: 'three' })),
        { isError: true, content: [{ type: 'text', text: /Invalid arguments for tool 'example-repeat'/ }] },
        'inputSchema checked by the server: a result the model reads (2025-11-25)',
      );
      t.same(payload(await call('example-divide', { dividend: 17, divisor: 5 })), { quotient: 3, remainder: 2 });
      const zero = await call('example-divide', { dividend: 1, divisor: 0 });
      t.equal(result(zero).isError, true, 'division by zero is an error result, not a protocol error');
      t.match(toolError(zero), { type: 'validation_error', message: 'Cannot divide by zero', hint: /divisor/ });
    },
  },

  '02-logging-and-levels': {
    async run({ t, server, call }) {
      await server.request('logging/setLevel', { level: 'warning' });
      let from = server.notifications('notifications/message').length;
      t.same(payload(await call('example-log-levels', { items: 3 })), { processed: 2, skipped: 1 });
      t.same(
        logsOf(server, 'example-log-levels', from).map((log) => log.level),
        ['warning', 'error'],
        'at warning: only warning and error',
      );
      await server.request('logging/setLevel', { level: 'debug' });
      from = server.notifications('notifications/message').length;
      await call('example-log-levels', { items: 3 });
      const logs = logsOf(server, 'example-log-levels', from);
      t.same(
        logs.map((log) => log.level).sort(),
        ['debug', 'debug', 'debug', 'error', 'info', 'notice', 'warning'],
        'at debug: everything',
      );
      t.same(
        logs.find((log) => log.level === 'notice')?.data,
        { items: 3, skipped: 1 },
        'mcp_log sends structured data',
      );
      t.match(logs.find((log) => log.level === 'info')?.data, /log level is debug/, 'the tool sees the level in force');
    },
  },

  '03-progress-and-cancellation': {
    async run({ t, server, call }) {
      const done = await call('example-slow-count', { steps: 4, delayMs: 50 }, { _meta: { progressToken: 'count-1' } });
      t.same(payload(done), { counted: 4 });
      const progress = server
        .notifications('notifications/progress')
        .map((m) => m.params as Json)
        .filter((p) => p.progressToken === 'count-1');
      t.same(
        progress.map((p) => p.progress),
        [0, 25, 50, 75, 100],
        'one notification per step',
      );
      t.match(progress[4], { total: 100, message: 'Step 4 of 4' });

      const before = server.notifications('notifications/progress').length;
      await call('example-slow-count', { steps: 2, delayMs: 10 });
      t.equal(server.notifications('notifications/progress').length, before, 'no progressToken, no progress');

      const id = 'count-to-cancel';
      server.send({
        jsonrpc: '2.0',
        id,
        method: 'tools/call',
        params: {
          name: 'example-slow-count',
          arguments: { steps: 100, delayMs: 100 },
          _meta: { progressToken: 'count-2' },
        },
      });
      await server.waitFor(
        (m) =>
          m.method === 'notifications/progress' &&
          (m.params as Json).progressToken === 'count-2' &&
          (m.params as Json).progress >= 2,
        10_000,
        'progress of the long count',
      );
      server.notify('notifications/cancelled', { requestId: id, reason: 'test' });
      // The count reports every 100 ms. Once the cancellation is handled (the ping after it
      // is answered) and the lines already written are through, three ticks with no new
      // progress show that it stopped.
      t.same((await server.request('ping')).result, {});
      await new Promise((resolve) => setTimeout(resolve, 200));
      const seen = server
        .notifications('notifications/progress')
        .filter((m) => (m.params as Json).progressToken === 'count-2').length;
      await new Promise((resolve) => setTimeout(resolve, 300));
      t.equal(
        server.notifications('notifications/progress').filter((m) => (m.params as Json).progressToken === 'count-2')
          .length,
        seen,
        'the count stopped',
      );
      t.same((await server.request('ping')).result, {});
      t.notOk(
        server.messages.some((m) => m.id === id),
        'no response for the cancelled call',
      );
    },
  },

  '04-roots-basics': {
    async run({ t, project, call }) {
      const sandbox = realpathSync(join(project, 'sandbox'));
      const roots = payload(await call('example-roots-list'));
      t.match(
        roots,
        { count: 1, paths: [sandbox], roots: [{ name: 'Sandbox', path: sandbox }] },
        'config/roots.json gives the roots',
      );
      const read = payload(await call('example-read-file', { path: 'sandbox/welcome.txt' }));
      t.match(read, { path: join(sandbox, 'welcome.txt'), content: /^Welcome to the sandbox\./ });
      t.match((await call('example-read-file', { path: 'outside.txt' })).error, {
        code: -32602,
        message: '.path is outside configured MCP roots',
      });
      t.match(
        (await call('example-read-file', { path: 'sandbox/../../etc/passwd' })).error,
        { code: -32602 },
        'no way out with ..',
      );
      const missing = await call('example-read-file', { path: 'sandbox/missing.txt' });
      t.equal(result(missing).isError, true);
      t.match(toolError(missing), { type: 'not_found', hint: /example-roots-list/ });
      t.same(payload(await call('example-check-path', { path: 'outside.txt' })), {
        path: join(realpathSync(project), 'outside.txt'),
        insideRoots: false,
      });
      t.match(payload(await call('example-check-path', { path: 'sandbox/notes/../notes/todo.txt' })), {
        path: join(sandbox, 'notes', 'todo.txt'),
        insideRoots: true,
      });
    },
  },

  '05-resources-basics': {
    async run({ t, server }) {
      const list = result(await server.request('resources/list')).resources as Json[];
      t.same(list.map((r) => r.name).sort(), ['echo-hello', 'greeting', 'settings']);
      const greeting = list.find((r) => r.name === 'greeting') as Json;
      t.match(
        greeting,
        {
          title: 'Greeting',
          mimeType: 'text/plain',
          uri: /^file:\/\/\/.*\/resources\/greeting\.txt$/,
          annotations: { priority: 0.8 },
        },
        "default uri: the file's own",
      );
      const read = result(await server.request('resources/read', { uri: greeting.uri })).contents as Json[];
      t.match(read[0], {
        uri: greeting.uri,
        mimeType: 'text/plain',
        text: /^Hello from the example-resources server!/,
      });
      const echo = result(
        await server.request('resources/read', { uri: 'echo://Hello%20from%20the%20echo%20provider' }),
      ).contents as Json[];
      t.equal(echo[0]?.text, 'Hello from the echo provider');
      const settings = result(await server.request('resources/read', { name: 'settings' })).contents as Json[];
      t.match(settings[0], { mimeType: 'application/json' });
      t.same(JSON.parse(settings[0]?.text as string), { theme: 'dark', language: 'en', autosave: true });
    },
  },

  '06-embedded-resources': {
    async run({ t, project, call }) {
      const response = await call('example-report', { title: 'Weekly status', lines: 2 });
      const content = result(response).content as Json[];
      t.equal(content[0]?.type, 'text');
      t.match(content[1], {
        type: 'resource',
        resource: {
          uri: 'report://example-report/report.txt',
          mimeType: 'text/plain',
          text: /^Weekly status\n.*\n\n1\. line 1 of 2\n2\. line 2 of 2\n$/,
        },
      });
      t.equal(content.length, 2, 'nothing was left out');
      t.notOk(existsSync(join(project, 'reports')), 'nothing is written into the project');
      t.match(payload(response), { lines: 2, report: 'report.txt' });
    },
  },

  '07-prompts-basics': {
    async run({ t, server }) {
      const prompts = result(await server.request('prompts/list')).prompts as Json[];
      t.same(prompts.map((p) => p.name).sort(), ['architecture-review', 'code-review', 'standup', 'triage']);
      t.match(prompts.find((p) => p.name === 'code-review')?.arguments, [
        { name: 'code', required: true },
        { name: 'language', required: true },
      ]);
      const got = result(
        await server.request('prompts/get', {
          name: 'code-review',
          arguments: { language: 'bash', code: 'echo "$1" ${HOME}' },
        }),
      );
      t.match(got.messages, [
        { role: 'user', content: { type: 'text', text: /^Please review the following bash code\./ } },
      ]);
      t.match(
        got.messages[0].content.text,
        /```bash\necho "\$1" \$\{HOME\}\n```/,
        'the value is inserted as is, nothing expanded',
      );
      t.match(
        (await server.request('prompts/get', { name: 'code-review', arguments: { language: 'bash' } })).error,
        { code: -32602, message: /"code"/ },
        'a required argument is missing',
      );
      t.match(
        result(await server.request('prompts/get', { name: 'standup' })).messages[0].content.text,
        /stand-up update/,
      );
      const review = result(
        await server.request('prompts/get', { name: 'architecture-review', arguments: { concern: 'failure modes' } }),
      );
      t.match(review.messages, [
        { role: 'user', content: { type: 'image', mimeType: 'image/png', data: /^iVBORw0KGgo/ } },
        { role: 'user', content: { type: 'text', text: /starting with failure modes\.$/ } },
        { role: 'assistant', content: { type: 'text', text: 'I will start with failure modes, then the rest.' } },
      ]);
      const triage = result(
        await server.request('prompts/get', { name: 'triage', arguments: { severity: '1', summary: 'API down' } }),
      );
      t.same(triage.messages, [
        { role: 'user', content: { type: 'text', text: 'Incident (severity 1): API down' } },
        {
          role: 'user',
          content: { type: 'text', text: 'This is an outage: give me the first three things to check, nothing else.' },
        },
      ]);
    },
  },

  '08-elicitation': {
    capabilities: { elicitation: { form: {} } },
    async run({ t, server, call }) {
      const order = call('example-order-coffee', {});
      const first = await answerElicitation(server, 0, { result: { action: 'accept', content: { choice: 'medium' } } });
      t.match(first, {
        mode: 'form',
        message: 'Which size would you like?',
        requestedSchema: { properties: { choice: { enum: ['small', 'medium', 'large'] } } },
      });
      const second = await answerElicitation(server, 1, { result: { action: 'accept', content: { name: 'Ada' } } });
      t.match(second, { requestedSchema: { properties: { name: { type: 'string' } }, required: ['name'] } });
      const third = await answerElicitation(server, 2, { result: { action: 'accept', content: { confirmed: true } } });
      t.equal(third.message, 'Order a medium coffee for Ada?');
      t.same(payload(await order), { ordered: true, size: 'medium', name: 'Ada', confirmed: true });

      const declined = call('example-order-coffee', {});
      await answerElicitation(server, 3, { result: { action: 'decline' } });
      t.same(payload(await declined), { ordered: false, reason: 'decline' }, 'declining is an answer, not an error');

      const cancelled = call('example-order-coffee', { size: 'large', name: 'Cy' });
      const asked = await answerElicitation(server, 4, { result: { action: 'cancel' } });
      t.equal(asked.message, 'Order a large coffee for Cy?', 'given arguments are not asked for');
      t.same(payload(await cancelled), { ordered: false, reason: 'cancel' });

      const failed = call('example-order-coffee', { size: 'small', name: 'Di' });
      await answerElicitation(server, 5, { error: { code: -1, message: 'dialog crashed' } });
      t.match(toolError(await failed), { type: 'elicitation_failed', hint: /arguments/ });
    },
  },

  '09-registry-overrides': {
    async run({ t, server, call }) {
      const tools = result(await server.request('tools/list')).tools as Json[];
      t.match(tools, [
        { name: 'example-clock', title: 'Clock', inputSchema: { properties: { zone: { enum: ['utc', 'local'] } } } },
      ]);
      t.match(payload(await call('example-clock', { zone: 'utc' })), {
        zone: 'utc',
        now: /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/,
      });
      t.match(payload(await call('example-clock', { zone: 'local' })), { zone: 'local' });
      const resources = result(await server.request('resources/list')).resources as Json[];
      t.match(resources, [{ name: 'registry-note', uri: 'echo://Registered%20in%20register.json' }]);
      t.equal(
        (
          result(await server.request('resources/read', { uri: 'echo://Registered%20in%20register.json' }))
            .contents as Json[]
        )[0]?.text,
        'Registered in register.json',
      );
      t.match(result(await server.request('prompts/list')).prompts, [
        { name: 'summarize', arguments: [{ name: 'topic', required: true }] },
      ]);
      t.match(
        result(await server.request('prompts/get', { name: 'summarize', arguments: { topic: 'Bash traps' } }))
          .messages[0].content.text,
        /^Summarize Bash traps in three short bullet points/,
      );
    },
  },

  '10-completions': {
    async run({ t, server }) {
      const complete = async (argument: string, value: string, extra: Json = {}) => {
        const response = await server.request('completion/complete', {
          ref: { type: 'ref/prompt', name: 'plan-trip' },
          argument: { name: argument, value },
          ...extra,
        });
        t.notOk(response.error, `completion of ${argument}=${value}`);
        return result(response).completion as { values: string[]; hasMore: boolean; nextCursor?: string };
      };
      t.same(await complete('city', 'b'), {
        values: ['Barcelona', 'Berlin', 'Bordeaux', 'Bruges', 'Budapest'],
        hasMore: false,
      });
      t.same((await complete('city', 'BER')).values, ['Berlin'], 'case does not matter');
      t.same((await complete('days', '1')).values, ['1', '10', '14'], 'one script, several arguments');
      t.same((await complete('other', 'x')).values, []);
      const first = await complete('city', '');
      t.same(first.values, ['Amsterdam', 'Athens', 'Barcelona', 'Berlin', 'Bordeaux']);
      t.equal(first.hasMore, true);
      t.type(first.nextCursor, 'string');
      t.same(
        (await complete('city', '', { cursor: first.nextCursor })).values,
        ['Bruges', 'Budapest', 'Copenhagen', 'Dublin', 'Edinburgh'],
        'the next page',
      );
      t.match(
        result(await server.request('prompts/get', { name: 'plan-trip', arguments: { city: 'Porto', days: '3' } }))
          .messages[0].content.text,
        /^Plan a 3-day trip to Porto:/,
      );
    },
  },

  '11-resource-templates': {
    async run({ t, server }) {
      const templates = result(await server.request('resources/templates/list')).resourceTemplates as Json[];
      t.match(templates, [
        { name: 'echo-message', uriTemplate: 'echo://{message}' },
        { name: 'note', uriTemplate: 'file://./resources/notes/{name}.txt', mimeType: 'text/plain' },
      ]);
      const note = result(await server.request('resources/read', { uri: 'file://./resources/notes/shopping.txt' }))
        .contents as Json[];
      t.match(note[0], { text: /coffee beans/ });
      const echo = result(await server.request('resources/read', { uri: 'echo://Hello%20there' })).contents as Json[];
      t.equal(echo[0]?.text, 'Hello there');
      t.match(
        (await server.request('resources/read', { uri: 'file://./resources/notes/../../server.d/server.meta.json' }))
          .error,
        { code: -32603, message: 'Resource outside allowed roots' },
        'a template cannot reach outside resources/',
      );
    },
  },

  '12-config-and-downloads': {
    env: {
      MCPBASH_TOOL_ENV_MODE: 'allowlist',
      MCPBASH_TOOL_ENV_ALLOWLIST: 'EXAMPLE_CONFIG',
      EXAMPLE_CONFIG: '{"units":"imperial"}',
    },
    async run({ t, project, call }) {
      t.match(payload(await call('example-show-config')), {
        greeting: 'Hello',
        units: 'imperial',
        maxItems: 5,
        allowHosts: ['example.com'],
        sources: ['defaults', 'config.example.json', 'EXAMPLE_CONFIG'],
      });
      const blocked = await call('example-fetch', { url: 'https://not-allowed.invalid/file.txt' });
      t.equal(result(blocked).isError, true);
      t.match(toolError(blocked), { type: 'host_blocked', message: /not in allow list/, hint: /allowHosts/ });
      t.match(toolError(await call('example-fetch', { url: 'http://example.com/' })), { type: 'invalid_url' });
      writeFileSync(join(project, 'config.json'), JSON.stringify({ greeting: 'Howdy', download: { allowHosts: [] } }));
      t.match(payload(await call('example-show-config')), {
        greeting: 'Howdy',
        units: 'imperial',
        allowHosts: [],
        sources: ['defaults', 'config.example.json', 'config.json', 'EXAMPLE_CONFIG'],
      });
      t.match(
        toolError(await call('example-fetch', { url: 'https://example.com/' })),
        { type: 'host_blocked', message: /no allow list/ },
        'no allow list: every host refused',
      );
    },
  },

  '13-ui-basics': {
    capabilities: UI_CAPABILITIES,
    async run({ t, server, project, call }) {
      const tools = result(await server.request('tools/list')).tools as Json[];
      const uiOf = (name: string) => tools.find((tool) => tool.name === name)?._meta?.ui;
      t.same(uiOf('example-contacts'), {
        resourceUri: 'ui://example-ui-basics/example-contacts',
        visibility: ['model', 'app'],
      });
      t.same(uiOf('example-server-info'), { resourceUri: 'ui://example-ui-basics/about' }, 'a standalone view, by URI');
      const views = (result(await server.request('resources/list')).resources as Json[]).map((r) => r.uri);
      t.same(views, [
        'ui://example-ui-basics/about',
        'ui://example-ui-basics/example-add-contact',
        'ui://example-ui-basics/example-contacts',
      ]);
      const about = result(await server.request('resources/read', { uri: 'ui://example-ui-basics/about' }));
      t.match(about.contents[0], {
        mimeType: 'text/html;profile=mcp-app',
        text: /'ui\/initialize'/,
        _meta: { ui: { prefersBorder: false } },
      });
      const form = result(
        await server.request('resources/read', { uri: 'ui://example-ui-basics/example-add-contact' }),
      );
      t.match(form.contents[0].text, /<select id="field-team" name="team" required>/, 'the form template');
      t.same(result(await call('example-contacts', { team: 'platform' })).structuredContent, {
        items: [{ name: 'Ada Lovelace', email: 'ada@example.com', team: 'platform' }],
      });
      t.same(
        result(await call('example-add-contact')).structuredContent,
        { values: { team: 'platform' } },
        'asks through the form',
      );
      t.match(
        result(await call('example-add-contact', { name: 'Alan Turing', email: 'alan@example.com', team: 'product' })),
        {
          content: [{ text: 'Added Alan Turing <alan@example.com> to product.' }],
        },
      );
      t.match(result(await call('example-add-contact', { name: 'X', email: 'nope' })), { isError: true });
      t.equal(result(await call('example-contacts', { query: 'TURING' })).structuredContent.items.length, 1);
      t.match(readFileSync(join(project, 'data/contacts.tsv'), 'utf8'), /Alan Turing\talan@example\.com\tproduct\n$/);
      t.match(result(await call('example-server-info')).structuredContent, {
        server: 'example-ui-basics',
        views: 'yes',
      });
    },
  },

  '14-ui-templates': {
    capabilities: UI_CAPABILITIES,
    async run({ t, server, project, call }) {
      const views = (result(await server.request('resources/list')).resources as Json[]).map((r) => r.uri);
      t.same(views.length, 4, 'one view per template tool');
      t.same(result(await call('example-build')).structuredContent, {
        progress: 0,
        total: 5,
        message: 'Queued',
        steps: [],
      });
      let status: Json = {};
      for (let i = 0; i < 5; i += 1) status = result(await call('example-build-status')).structuredContent;
      t.match(status, { progress: 5, total: 5, done: true, message: 'Build finished', steps: { length: 5 } });
      const compare = result(await call('example-compare'));
      t.match(compare.content[0].text, /^--- app-v1\.conf\n\+\+\+ app-v2\.conf\n[\s\S]*\+cache_size = 64m/);
      t.match(compare.structuredContent, { left: /^# app\.conf, version 1/, right: /cache_size = 64m$/ });
      t.match(result(await call('example-compare', { left: '../server.d/server.meta.json' })), { isError: true });
      const tree = result(await call('example-file-tree')).structuredContent;
      t.match(tree.nodes[0], {
        id: '.',
        label: 'sample',
        children: [{ id: 'app-v1.conf' }, { id: 'app-v2.conf' }, { id: 'docs', children: [{ id: 'docs/guide.md' }] }],
      });
      t.match(result(await call('example-file-info', { nodeId: 'docs/guide.md' })).structuredContent, { lines: 3 });
      const board = result(await call('example-task-board')).structuredContent;
      t.same(
        board.cards.map((card: Json) => `${card.id}:${card.column}`),
        ['T-1:todo', 'T-2:in-progress', 'T-3:done', 'T-4:todo'],
      );
      t.match(result(await call('example-move-task', { cardId: 'T-2', fromColumn: 'in-progress', toColumn: 'done' })), {
        content: [{ text: 'Moved T-2 to done.' }],
      });
      t.match(readFileSync(join(project, 'data/tasks.tsv'), 'utf8'), /^T-2\tdone\t/m);
      t.match(result(await call('example-move-task', { cardId: 'T-9', toColumn: 'done' })), { isError: true });
    },
  },

  '15-sampling': {
    capabilities: { sampling: {} },
    async run({ t, server, call }) {
      const haiku = call('example-haiku', { topic: 'autumn rain' });
      await server.waitFor(
        () => server.messages.some((m) => m.method === 'sampling/createMessage'),
        10_000,
        'sampling',
      );
      const asked = server.messages.find((m) => m.method === 'sampling/createMessage') as Message;
      t.match(asked.params, {
        messages: [{ role: 'user', content: { type: 'text', text: /haiku about autumn rain/ } }],
        systemPrompt: /5-7-5/,
        maxTokens: 80,
        temperature: 0.8,
      });
      const poem = 'Rain on the window\nthe kettle begins to sing\nleaves let go at last';
      const answer = { role: 'assistant', content: { type: 'text', text: poem }, model: 'test-model' };
      server.send({ jsonrpc: '2.0', id: asked.id, result: answer });
      t.same(payload(await haiku), { topic: 'autumn rain', haiku: poem });

      const declined = call('example-haiku', { topic: 'x' });
      await server.waitFor(
        () => server.messages.filter((m) => m.method === 'sampling/createMessage').length > 1,
        10_000,
        'second sampling',
      );
      const second = server.messages.filter((m) => m.method === 'sampling/createMessage')[1] as Message;
      server.send({ jsonrpc: '2.0', id: second.id, error: { code: -1, message: 'User rejected sampling request' } });
      t.match(toolError(await declined), { type: 'sampling_failed', hint: /declined/ });
    },
  },
};

for (const id of exampleIds) {
  t.test(id, async (t) => {
    const scenario = scenarios[id];
    if (!scenario) {
      t.fail(`assets/examples/${id} has no scenario in this test: add one that exercises what it demonstrates`);
      return;
    }
    const project = copyProject(join(examplesDir, id), id);
    t.ok(existsSync(join(project, 'README.md')), 'has a README.md');
    t.type(
      JSON.parse(readFileSync(join(project, 'server.d', 'server.meta.json'), 'utf8')).name,
      'string',
      'names its server',
    );

    const validation = await runBinary(['validate', '--json', '--project-root', project], { env: isolatedEnv() });
    const report = JSON.parse(validation.stdout) as {
      errors: number;
      messages: Array<{ level: string; message: string }>;
    };
    t.equal(
      report.errors,
      0,
      `validate: ${report.messages
        .filter((m) => m.level === 'error')
        .map((m) => m.message)
        .join('; ')}`,
    );
    t.equal(validation.code, 0);

    const server = await startInitialized({
      projectRoot: project,
      env: toolEnv(scenario.env),
      ...(scenario.capabilities ? { capabilities: scenario.capabilities } : {}),
    });
    t.teardown(() => server.close());
    const listed = ((result(await server.request('tools/list')).tools ?? []) as Json[])
      .map((tool) => tool.name as string)
      .sort();
    for (const name of listed) t.match(name, /^[a-zA-Z0-9_-]{1,64}$/, `tool name ${name}`);
    const called = new Set<string>();
    const call = async (name: string, args: Json = {}, extra: Json = {}) => {
      const response = await server.request('tools/call', { name, arguments: args, ...extra }, undefined, 20_000);
      if (response.result !== undefined) called.add(name);
      return response;
    };
    await scenario.run({ t, server, project, call });
    t.same([...called].sort(), listed, 'every tool was called');
    t.same(server.protocolViolations, [], 'stdout carried only JSON-RPC');
  });
}

t.test('08-elicitation without the client capability works from the arguments', async (t) => {
  const server = await startInitialized({
    projectRoot: copyProject(join(examplesDir, '08-elicitation'), '08-elicitation'),
    env: toolEnv(),
  });
  t.teardown(() => server.close());
  t.same(
    payload(
      await server.request('tools/call', { name: 'example-order-coffee', arguments: { size: 'small', name: 'Bo' } }),
    ),
    { ordered: true, size: 'small', name: 'Bo', confirmed: false },
  );
  const missing = await server.request('tools/call', { name: 'example-order-coffee', arguments: { size: 'small' } });
  t.match(toolError(missing), { type: 'validation_error', hint: /size.*name/ });
  t.notOk(
    server.messages.some((m) => m.method === 'elicitation/create'),
    'nothing was asked',
  );
});

t.test('14-ui-templates without MCP Apps: the app-only tool is not offered, results are text', async (t) => {
  const server = await startInitialized({
    projectRoot: copyProject(join(examplesDir, '14-ui-templates'), '14-ui-templates'),
    env: toolEnv(),
  });
  t.teardown(() => server.close());
  const names = (result(await server.request('tools/list')).tools as Json[]).map((tool) => tool.name);
  t.notOk(names.includes('example-move-task'));
  t.ok(names.includes('example-task-board'));
  const board = result(await server.request('tools/call', { name: 'example-task-board', arguments: {} }));
  t.notOk(board.structuredContent, 'no data for a view');
  t.match(board.content[0].text, /^T-1 \[todo\] Write the release notes \(medium\)\n/);
});

t.test('running the examples leaves the source tree alone (a cache the README command wrote included)', async (t) => {
  t.ok(existsSync(helloRegistry), "the README's first command wrote 00-hello-tool/.registry: this run had it in place");
  for (const [path, mtime] of generatedState()) t.equal(mtime, before.get(path), path.slice(examplesDir.length + 1));
});
