import SCRIPT from '../../assets/ui-templates/data-table.browser.js' with { type: 'text' };
import CSS from '../../assets/ui-templates/data-table.css' with { type: 'text' };
import { flag, objects, text } from './config-values.js';
import { escapeHtml, heading, type TemplateParts } from './html.js';

interface Column {
  key: string;
  label: string;
  sortable: boolean;
}

function columnsOf(config: Record<string, unknown>): Column[] {
  return objects(config, 'columns').flatMap((raw) => {
    const key = text(raw, 'key') || text(raw, 'name');
    return key === '' ? [] : [{ key, label: text(raw, 'label') || key, sortable: flag(raw, 'sortable', true) }];
  });
}

/**
 * `data-table` (original-behaviour §4.7): the tool result's rows (`structuredContent.items`,
 * `.rows`, `.data`, or an array; before a result, the config's `rows`) under the configured
 * columns (or the rows' keys), sortable by a header click and filtered by a search box.
 */
export function dataTableTemplate(config: Record<string, unknown>): TemplateParts {
  const title = text(config, 'title', 'Data');
  const columns = columnsOf(config);
  const headers = columns.map((column) => `<th scope="col">${escapeHtml(column.label)}</th>`).join('');
  const body = [
    heading(title),
    '<div class="toolbar"><input type="search" id="filter" placeholder="Filter rows" aria-label="Filter rows"></div>',
    '<table id="dataTable">',
    `<thead id="tableHead"><tr>${headers}</tr></thead>`,
    `<tbody id="tableBody"><tr><td colspan="${Math.max(columns.length, 1)}" class="muted">` +
      'Waiting for data…</td></tr></tbody>',
    '</table>',
    '<div class="count" id="rowCount"></div>',
  ];
  return {
    title,
    css: CSS,
    body: body.join('\n'),
    script: SCRIPT,
    config: {
      columns,
      rowsKey: text(config, 'rowsKey'),
      emptyText: text(config, 'emptyText', 'No data'),
      ...(Array.isArray(config.rows) ? { rows: config.rows } : {}),
    },
  };
}
