import { dataTableTemplate } from './data-table.js';
import { diffViewerTemplate } from './diff-viewer.js';
import { formTemplate } from './form.js';
import { htmlDocument, type TemplateParts } from './html.js';
import { kanbanTemplate } from './kanban.js';
import { progressTemplate } from './progress.js';
import type { TemplateName } from './template-names.js';
import { treeViewTemplate } from './tree-view.js';

const GENERATORS: Readonly<Record<TemplateName, (config: Record<string, unknown>) => TemplateParts>> = {
  form: formTemplate,
  'data-table': dataTableTemplate,
  progress: progressTemplate,
  'diff-viewer': diffViewerTemplate,
  'tree-view': treeViewTemplate,
  kanban: kanbanTemplate,
};

/**
 * The HTML document of a UI template (ui.meta.json `template` + `config`, or the SDK's
 * `mcp_ui_form`/`mcp_ui_table`): self-contained, themed by the host, speaking MCP Apps.
 */
export function renderUiTemplate(name: TemplateName, config: Record<string, unknown> = {}): string {
  return htmlDocument(GENERATORS[name](config));
}
