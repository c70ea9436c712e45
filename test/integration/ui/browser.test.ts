/**
 * The UI templates in a real browser: headless Chromium loads a small MCP Apps host page,
 * which frames each view (HTML from the server's resources/read, on another origin, under
 * the CSP the spec builds from _meta.ui.csp) in a sandboxed iframe, answers its handshake and
 * hands it the tool's real result. What renders is checked, the views' tools/call requests
 * are forwarded to the real server (official SDK client), the views' messages are checked
 * against the MCP Apps schema, and a screenshot of each is kept in .tap/ui-screenshots/.
 */
import { mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import t, { type Test } from 'tap';
import { UI_EXTENSION_ID, UI_MIME_TYPE } from '../../../src/project/ui/ui-resource.js';
import { CdpBrowser, type CdpPage, findChromium } from '../../helpers/cdp.js';
import { copyProject } from '../../helpers/fixtures.js';
import { McpAppsHost } from '../../helpers/mcp-apps-host.js';
import { checkMcpApps } from '../../helpers/mcp-apps-schema.js';
import { repoRoot } from '../../helpers/paths.js';
import { toolEnv } from '../../helpers/run-binary.js';
import { connectSdkClient, sdkEnv } from '../../helpers/sdk-client.js';

// Results and messages are checked with t.match; a loose type keeps that readable.
type Json = Record<string, any>;

const chromium = findChromium();
const required = process.env.MCPBASH_REQUIRE_CHROMIUM === '1';
const screenshots = join(repoRoot, '.tap', 'ui-screenshots');

/** The view-to-host messages the MCP Apps schema defines, by method. */
const MESSAGE_SCHEMAS: Record<string, string> = {
  'ui/initialize': 'McpUiInitializeRequest',
  'ui/notifications/initialized': 'McpUiInitializedNotification',
  'ui/notifications/size-changed': 'McpUiSizeChangedNotification',
  'ui/update-model-context': 'McpUiUpdateModelContextRequest',
  'ui/message': 'McpUiMessageRequest',
};

/** The host's theme: the views must take it over their own defaults. */
const hostContext = {
  theme: 'dark',
  displayMode: 'inline',
  styles: {
    variables: {
      '--color-background-primary': 'rgb(20, 24, 32)',
      '--color-text-primary': 'rgb(230, 235, 245)',
      '--font-sans': 'serif',
    },
  },
  containerDimensions: { maxHeight: 1200 },
};

interface HostEvent {
  kind: 'fromView' | 'toView';
  data: Json;
}

/** A served example and the official client connected to it (declaring MCP Apps). */
async function exampleClient(t: Test, example: string): Promise<{ client: Client; root: string }> {
  const root = copyProject(join(repoRoot, 'assets', 'examples', example), example);
  const { client } = await connectSdkClient({
    env: sdkEnv(toolEnv({ MCPBASH_PROJECT_ROOT: root })),
    capabilities: { capabilities: { extensions: { [UI_EXTENSION_ID]: { mimeTypes: [UI_MIME_TYPE] } } } },
  });
  t.teardown(() => client.close());
  return { client, root };
}

class Harness {
  current: Client | undefined;
  readonly host = new McpAppsHost((params) => {
    if (!this.current) throw new Error('no server');
    return this.current.callTool(params);
  });
  page!: CdpPage;
  private from = 0;

  constructor(readonly browser: CdpBrowser) {}

  async start(): Promise<void> {
    await this.host.start();
    this.page = await this.browser.newPage();
    await this.browser.send('Runtime.addBinding', { name: 'hostEvent' }, this.page.sessionId);
  }

  /** What the host page reported since the last mount. */
  events(): HostEvent[] {
    return this.browser.events
      .slice(this.from)
      .filter((m) => m.method === 'Runtime.bindingCalled' && m.sessionId === this.page.sessionId)
      .map((m) => JSON.parse((m.params as { payload: string }).payload) as HostEvent);
  }

  fromView(method: string): Json[] {
    return this.events()
      .filter((event) => event.kind === 'fromView' && event.data.method === method)
      .map((event) => event.data);
  }

  /** Waits until the view has sent `method` `count` times. */
  async waitForView(method: string, count = 1): Promise<Json[]> {
    await this.browser.waitForEvent(() => this.fromView(method).length >= count, 15_000, `${count} × ${method}`);
    return this.fromView(method);
  }

  /**
   * Calls the tool, reads the UI resource its _meta.ui.resourceUri names, and shows it in the
   * host page with the tool's input and result. Resolves with the iframe's session.
   */
  async show(client: Client, tool: string, args: Json = {}): Promise<{ session: string; result: Json }> {
    this.current = client;
    const listed = (await client.listTools()).tools.find((item) => item.name === tool) as Json;
    const uri = listed._meta.ui.resourceUri as string;
    const contents = (await client.readResource({ uri })).contents[0] as Json;
    const result = (await client.callTool({ name: tool, arguments: args })) as Json;
    const url = this.host.addView(tool, contents.text, contents._meta?.ui?.csp);
    await this.page.navigate(this.host.hostUrl);
    this.from = this.browser.events.length;
    await this.page.evaluate(
      `mountView(${JSON.stringify(url)}, ${JSON.stringify({ toolInput: args, toolResult: result, hostContext })})`,
    );
    const session = await this.page.frameSession(url, this.from);
    await this.waitForView('ui/notifications/initialized');
    return { session, result };
  }

  /** Evaluates in the view. */
  inView<T>(session: string, expression: string): Promise<T> {
    return this.page.evaluate<T>(expression, session);
  }

  /**
   * Checks every message the view sent against the MCP Apps schema, that nothing failed in
   * it, and that its size reports let the host fit the frame to it; then takes the screenshot.
   */
  async checkView(t: Test, session: string, name: string, reportsSize = true): Promise<void> {
    for (const event of this.events().filter((e) => e.kind === 'fromView')) {
      const { jsonrpc, id, ...message } = event.data;
      t.equal(jsonrpc, '2.0', `${name}: JSON-RPC 2.0`);
      const definition = MESSAGE_SCHEMAS[message.method as string];
      if (definition) {
        const check = checkMcpApps(definition, message);
        t.same(check, { valid: true }, `${name}: ${message.method} matches ${definition}`);
      } else if (message.method === 'tools/call') {
        t.match(message.params, { name: String, arguments: Object }, `${name}: tools/call params`);
      }
    }
    t.same(this.browser.problems(session), [], `${name}: no exception, console error or CSP violation in the view`);
    if (reportsSize) {
      await this.page.waitFor('document.documentElement.scrollHeight <= innerHeight + 1', session);
      t.pass(`${name}: the host fitted the frame to the size the view reported`);
    }
    await this.page.screenshot(join(screenshots, `${name}.png`));
  }
}

t.test(
  'MCP Apps views in headless Chromium',
  { skip: !chromium && !required ? 'Chromium is not installed (apt-get install chromium; CI installs it)' : false },
  async (t) => {
    t.ok(chromium, 'Chromium is installed');
    mkdirSync(screenshots, { recursive: true });
    const browser = CdpBrowser.launch(chromium as string);
    t.teardown(() => browser.close());
    const ui = new Harness(browser);
    await ui.start();
    t.teardown(() => ui.host.close());
    const basics = await exampleClient(t, '13-ui-basics');
    const templates = await exampleClient(t, '14-ui-templates');

    t.test('data-table: the contacts, themed by the host, filtered and sorted', async (t) => {
      const { session } = await ui.show(basics.client, 'example-contacts');
      await ui.page.waitFor(`document.querySelectorAll('#tableBody tr').length === 3`, session);
      t.same(await ui.inView(session, `[...document.querySelectorAll('#tableHead th')].map((th) => th.textContent)`), [
        'Name',
        'Email',
        'Team',
      ]);
      t.same(
        await ui.inView(
          session,
          `[...document.querySelectorAll('#tableBody tr:first-child td')].map((td) => td.textContent)`,
        ),
        ['Ada Lovelace', 'ada@example.com', 'platform'],
      );
      t.equal(await ui.inView(session, `document.getElementById('rowCount').textContent`), '3 rows');
      t.equal(
        await ui.inView(session, 'getComputedStyle(document.body).backgroundColor'),
        'rgb(20, 24, 32)',
        "the host's --color-background-primary",
      );
      t.equal(await ui.inView(session, 'getComputedStyle(document.documentElement).colorScheme'), 'dark');
      await ui.inView(
        session,
        `(() => { const f = document.getElementById('filter'); f.value = 'GRACE'; ` +
          `f.dispatchEvent(new Event('input')); })()`,
      );
      t.equal(await ui.inView(session, `document.getElementById('rowCount').textContent`), '1 of 3 rows');
      await ui.inView(
        session,
        `(() => { const f = document.getElementById('filter'); f.value = ''; f.dispatchEvent(new Event('input')); ` +
          `document.querySelector('#tableHead th').click(); document.querySelector('#tableHead th').click(); })()`,
      );
      t.equal(
        await ui.inView(session, `document.querySelector('#tableBody td').textContent`),
        'Karen Spärck Jones',
        'sorted by name, descending',
      );
      const sizes = await ui.waitForView('ui/notifications/size-changed');
      t.ok((sizes[0]?.params.height as number) > 50, 'the view reported its size');
      await ui.checkView(t, session, 'data-table');
    });

    t.test('form: fields from the config; Submit reaches the host as a tools/call the server runs', async (t) => {
      const { session, result } = await ui.show(basics.client, 'example-add-contact');
      t.match(result.structuredContent, { values: { team: 'platform' } }, 'the tool saw the UI support');
      t.same(
        await ui.inView(
          session,
          `[...document.querySelectorAll('#form [name]')].map((el) => el.tagName.toLowerCase() + ':' + el.name ` +
            `+ ':' + (el.type || ''))`,
        ),
        ['input:name:text', 'input:email:email', 'select:team:select-one'],
      );
      t.equal(
        await ui.inView(session, `document.querySelector('#form [name=team]').value`),
        'platform',
        'prefilled from the result',
      );
      await ui.inView(
        session,
        `(() => {
        const form = document.getElementById('form');
        form.elements.name.value = 'Alan Turing';
        form.elements.email.value = 'alan@example.com';
        form.elements.team.value = 'product';
        document.getElementById('submitBtn').click();
      })()`,
      );
      const [call] = await ui.waitForView('tools/call');
      t.same(call?.params, {
        name: 'example-add-contact',
        arguments: { name: 'Alan Turing', email: 'alan@example.com', team: 'product' },
      });
      await ui.page.waitFor(`document.getElementById('message').className === 'message success'`, session);
      t.equal(
        await ui.inView(session, `document.getElementById('message').textContent`),
        'Added Alan Turing <alan@example.com> to product.',
      );
      t.match(
        readFileSync(join(basics.root, 'data/contacts.tsv'), 'utf8'),
        /\nAlan Turing\talan@example\.com\tproduct\n$/,
      );
      const [context] = await ui.waitForView('ui/update-model-context');
      t.match(context?.params, { structuredContent: { name: 'Alan Turing' } }, 'the model is told what was submitted');
      await ui.checkView(t, session, 'form');
      const table = await ui.show(basics.client, 'example-contacts');
      await ui.page.waitFor(`document.querySelectorAll('#tableBody tr').length === 4`, table.session);
      t.match(await ui.inView(table.session, `document.getElementById('tableBody').textContent`), /Alan Turing/);
    });

    t.test('a hand-written standalone view named by _meta.ui.resourceUri', async (t) => {
      const { session } = await ui.show(basics.client, 'example-server-info');
      await ui.page.waitFor(`document.querySelectorAll('#facts dt').length === 4`, session);
      t.match(
        await ui.inView(session, `document.getElementById('facts').textContent`),
        /serverexample-ui-basics[\s\S]*viewsyes/,
      );
      // The hand-written page keeps to the handshake and the result: no size reports.
      await ui.checkView(t, session, 'standalone', false);
    });

    t.test('progress: the view polls the status tool until the build is done', async (t) => {
      const { session } = await ui.show(templates.client, 'example-build');
      await ui.page.waitFor(`document.getElementById('message').textContent === 'Done.'`, session, 15_000);
      t.equal(await ui.inView(session, `document.getElementById('progressPercent').textContent`), '100');
      t.equal(await ui.inView(session, `document.getElementById('progressBar').getAttribute('aria-valuenow')`), '100');
      t.same(
        await ui.inView(session, `[...document.querySelectorAll('#stepList li.done')].map((li) => li.textContent)`),
        ['Checkout', 'Install', 'Compile', 'Test', 'Package'],
      );
      const polls = ui.fromView('tools/call');
      t.equal(polls.length, 5, 'one tools/call per step, then polling stops');
      t.ok(polls.every((call) => call.params.name === 'example-build-status'));
      await ui.checkView(t, session, 'progress');
    });

    t.test('diff-viewer: a split line diff, and the unified view', async (t) => {
      const { session } = await ui.show(templates.client, 'example-compare');
      await ui.page.waitFor(`document.querySelectorAll('.diff-table tr').length > 1`, session);
      t.equal(await ui.inView(session, `document.getElementById('diffStats').textContent`), '+5 / -4 lines');
      t.same(
        await ui.inView(session, `[...document.querySelectorAll('td.added')].map((td) => td.textContent)`),
        ['# app.conf, version 2', 'listen = 0.0.0.0:8080', 'workers = 4', 'cache = on', 'cache_size = 64m'],
        'added lines on the right, paired with the removed ones',
      );
      t.same(await ui.inView(session, `[...document.querySelectorAll('td.removed')].map((td) => td.textContent)`), [
        '# app.conf, version 1',
        'listen = 127.0.0.1:8080',
        'workers = 2',
        'cache = off',
      ]);
      await ui.inView(session, `document.getElementById('unifiedBtn').click()`);
      t.equal(await ui.inView(session, `document.querySelector('.diff-table').classList.contains('unified')`), true);
      t.match(
        await ui.inView(session, `document.querySelector('.diff-table').textContent`),
        /-cache = off[\s\S]*\+cache_size = 64m/,
      );
      await ui.checkView(t, session, 'diff-viewer');
    });

    t.test('tree-view: nested files; selecting one calls the tool named in the config', async (t) => {
      const { session } = await ui.show(templates.client, 'example-file-tree');
      await ui.page.waitFor(`document.querySelector('[data-node-id="docs/guide.md"]')`, session);
      t.equal(await ui.inView(session, `document.getElementById('treeStats').textContent`), '7 items');
      await ui.inView(session, `document.querySelector('[data-node-id="docs/guide.md"]').click()`);
      const [call] = await ui.waitForView('tools/call');
      t.match(call?.params, { name: 'example-file-info', arguments: { nodeId: 'docs/guide.md', label: 'guide.md' } });
      await ui.page.waitFor(`document.getElementById('message').className === 'message success'`, session);
      t.equal(
        await ui.inView(session, `document.getElementById('message').textContent`),
        'sample/docs/guide.md: 69 bytes, 3 lines',
      );
      await ui.inView(
        session,
        `(() => { const s = document.getElementById('searchInput'); s.value = 'start'; ` +
          `s.dispatchEvent(new Event('input')); })()`,
      );
      t.same(await ui.inView(session, `[...document.querySelectorAll('.tree-label')].map((l) => l.textContent)`), [
        'sample',
        'scripts',
        'start.sh',
      ]);
      await ui.checkView(t, session, 'tree-view');
    });

    t.test('kanban: cards in their columns; a move calls the app-only tool', async (t) => {
      const { session } = await ui.show(templates.client, 'example-task-board');
      await ui.page.waitFor(`document.querySelectorAll('.kanban-card').length === 4`, session);
      const counts =
        `[...document.querySelectorAll('.kanban-column')].map((c) => c.dataset.columnId + '=' + ` +
        `c.querySelector('.kanban-column-count').textContent)`;
      t.same(await ui.inView(session, counts), ['todo=2', 'in-progress=1', 'done=1']);
      await ui.inView(
        session,
        `(() => { const select = document.querySelector('[data-card-id="T-1"] select'); select.value = 'done'; ` +
          `select.dispatchEvent(new Event('change')); })()`,
      );
      const [call] = await ui.waitForView('tools/call');
      t.same(call?.params, {
        name: 'example-move-task',
        arguments: { cardId: 'T-1', fromColumn: 'todo', toColumn: 'done' },
      });
      await ui.page.waitFor(`document.getElementById('message').className === 'message success'`, session);
      t.same(await ui.inView(session, counts), ['todo=1', 'in-progress=1', 'done=2']);
      t.match(readFileSync(join(templates.root, 'data/tasks.tsv'), 'utf8'), /^T-1\tdone\t/m, 'the server moved it');
      await ui.checkView(t, session, 'kanban');
    });

    t.test('the views fetched nothing but their own page', async (t) => {
      const unexpected = ui.host.requests.filter((path) => !/^\/(host|view\/[\w-]+|rpc|favicon\.ico)$/.test(path));
      t.same(unexpected, []);
    });
  },
);
