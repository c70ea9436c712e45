import t from 'tap';
import { renderUiTemplate } from '../../../src/ui-templates/index.js';
import { starterPage } from '../../../src/ui-templates/starter-page.js';
import { TEMPLATE_NAMES } from '../../../src/ui-templates/template-names.js';

/** The JSON the page hands its script as mcpApp.config. */
function configOf(html: string): unknown {
  const match = /<script type="application\/json" id="mcp-app-config">([\s\S]*?)<\/script>/.exec(html);
  return JSON.parse(match?.[1] ?? 'null');
}

t.test('every template is a self-contained HTML5 page themed by the host', async (t) => {
  for (const name of TEMPLATE_NAMES) {
    const html = renderUiTemplate(name, { title: `My ${name}` });
    t.match(html, /^<!DOCTYPE html>\n<html lang="en">/, `${name}: doctype`);
    t.match(html, /<\/body>\n<\/html>\n$/, `${name}: closed`);
    t.match(html, new RegExp(`<title>My ${name}</title>`), `${name}: title`);
    t.match(html, /var\(--color-text-primary\)/, `${name}: host theme variables`);
    t.match(html, /'ui\/initialize'/, `${name}: the MCP Apps handshake`);
    t.match(html, /'ui\/notifications\/size-changed'/, `${name}: size reports`);
    t.notMatch(html, /\b(src|href)=["']?(https?:)?\/\//i, `${name}: no external script, style or link`);
    t.notMatch(html, /\bimport\s*[({'"]|@import|url\(\s*['"]?https?:/i, `${name}: no module import or remote CSS`);
    t.notMatch(html, /\son[a-z]+=/i, `${name}: no inline event handler attributes`);
    t.notMatch(html, /\$\{/, `${name}: no template-literal leftovers`);
  }
  t.match(starterPage('Weather <today>'), /<h2>Weather &lt;today&gt;<\/h2>[\s\S]*app\.onToolResult/);
});

t.test('config values are escaped in markup and cannot end the config script', async (t) => {
  const hostile = '</script><script>alert(1)</script>';
  const html = renderUiTemplate('form', {
    title: hostile,
    fields: [{ name: 'x"y', type: 'select', options: [hostile], label: '<b>' }],
    submitTool: hostile,
  });
  t.equal(html.split('<script').length - 1, 3, 'only the config, bridge and template scripts');
  t.match(html, /<h2>&lt;\/script&gt;&lt;script&gt;alert\(1\)&lt;\/script&gt;<\/h2>/);
  t.match(html, /name="x&quot;y"/);
  t.match(configOf(html), { submitTool: hostile }, 'the config survives intact');
  t.match(html, /\\u003c\/script>/, 'the config escapes <');
});

t.test('form: one labelled control per field, 1.x field types, required marks', async (t) => {
  const html = renderUiTemplate('form', {
    title: 'Log Entry',
    fields: [
      { name: 'user_name', type: 'text', required: true, placeholder: 'you' },
      { name: 'email', type: 'email', default: 'a@b.c' },
      { name: 'count', type: 'number' },
      { name: 'when', type: 'date' },
      { name: 'notes', type: 'textarea' },
      { name: 'kind', type: 'select', options: ['meeting', { value: 'call', label: 'Phone call' }], default: 'call' },
      { name: 'urgent', type: 'checkbox', default: true },
      { name: 'odd', type: 'weird' },
      { type: 'text' },
    ],
    submitTool: 'log-interaction',
    submitLabel: 'Save',
    cancelable: true,
  });
  t.match(html, /<label for="field-user_name">User Name <span class="required"/, '1.x label: the name title-cased');
  t.match(html, /<input type="text" id="field-user_name" name="user_name" value="" placeholder="you" required>/);
  t.match(html, /<input type="email" id="field-email" name="email" value="a@b.c">/);
  t.match(html, /<input type="number" id="field-count" name="count"/);
  t.match(html, /<input type="date" id="field-when"/);
  t.match(html, /<textarea id="field-notes" name="notes" rows="4"><\/textarea>/);
  t.match(html, /<option value="meeting">meeting<\/option><option value="call" selected>Phone call<\/option>/);
  t.match(html, /<input type="checkbox" id="field-urgent" name="urgent" checked>/);
  t.match(html, /<input type="text" id="field-odd"/, 'an unknown type is a text input');
  t.match(html, /<button type="button" id="cancelBtn">Cancel<\/button>/);
  t.match(html, /<button type="submit" id="submitBtn" class="primary">Save<\/button>/);
  t.match(
    configOf(html),
    { submitTool: 'log-interaction', fields: { length: 8 } },
    'a field without a name is left out',
  );
});

t.test('data-table, progress, diff-viewer, tree-view, kanban: their markup and config', async (t) => {
  const table = renderUiTemplate('data-table', {
    title: 'Results',
    columns: [{ key: 'name', label: 'Name' }, { key: 'value' }, { label: 'no key' }],
    rows: [{ name: 'a', value: 1 }],
  });
  t.match(table, /<thead id="tableHead"><tr><th scope="col">Name<\/th><th scope="col">value<\/th><\/tr><\/thead>/);
  t.match(configOf(table), { columns: [{ key: 'name' }, { key: 'value', sortable: true }], rows: [{ name: 'a' }] });
  const progress = renderUiTemplate('progress', {
    title: 'Operation Progress',
    cancelTool: 'abort',
    pollIntervalMs: 5,
  });
  t.match(progress, /class="progress-bar" id="progressBar" role="progressbar"/);
  t.match(progress, /<span id="progressPercent">0<\/span>% complete/);
  t.match(progress, /id="cancelBtn"/);
  t.match(
    configOf(progress),
    { cancelTool: 'abort', pollIntervalMs: 1000 },
    'a too short poll interval is the default',
  );
  t.notMatch(renderUiTemplate('progress', { showPercentage: false }), /<span id="progressPercent"/);
  const diff = renderUiTemplate('diff-viewer', { viewMode: 'unified', leftTitle: 'Old' });
  t.match(diff, /<button type="button" id="unifiedBtn" class="active">Unified<\/button>/);
  t.match(configOf(diff), { viewMode: 'unified', leftTitle: 'Old', rightTitle: 'Modified', showLineNumbers: true });
  const tree = renderUiTemplate('tree-view', { selectable: true, onSelectTool: 'select-node', expandLevel: 2 });
  t.match(tree, /id="searchInput"/);
  t.match(configOf(tree), { selectable: true, onSelectTool: 'select-node', expandLevel: 2 });
  const board = renderUiTemplate('kanban', {
    columns: [{ id: 'todo', title: 'To Do' }, { id: 'done' }],
    onMoveTool: 'mv',
  });
  t.match(board, /data-column-id="todo"><div class="kanban-column-header"><span>To Do<\/span>/);
  t.match(board, /data-column-id="done"><div class="kanban-column-header"><span>done<\/span>/);
  t.match(configOf(board), { draggable: true, onMoveTool: 'mv' });
  t.match(renderUiTemplate('kanban'), /data-column-id="in-progress"/, "1.x's default columns");
});
