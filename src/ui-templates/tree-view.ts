import SCRIPT from '../../assets/ui-templates/tree-view.browser.js' with { type: 'text' };
import CSS from '../../assets/ui-templates/tree-view.css' with { type: 'text' };
import { count, flag, text } from './config-values.js';
import { heading, MESSAGE_BOX, type TemplateParts } from './html.js';

/**
 * `tree-view` (original-behaviour §4.7): nested nodes (`label`/`name`, `children`, `meta`,
 * `icon`, `id`) from the tool result, expanded to `expandLevel`, with a search box; when
 * `selectable`, a click selects a node and calls `onSelectTool` with its id.
 */
export function treeViewTemplate(config: Record<string, unknown>): TemplateParts {
  const title = text(config, 'title', 'Tree View');
  const searchable = flag(config, 'searchable', true);
  const body = [
    heading(title),
    MESSAGE_BOX,
    searchable
      ? '<div class="tree-search">' +
        '<input type="search" id="searchInput" placeholder="Search" aria-label="Search the tree"></div>'
      : '',
    '<div class="tree-container" id="treeRoot"><p class="muted">Waiting for data…</p></div>',
    '<div id="treeStats"></div>',
  ];
  return {
    title,
    css: CSS,
    body: body.filter((line) => line !== '').join('\n'),
    script: SCRIPT,
    config: {
      showIcons: flag(config, 'showIcons', true),
      expandLevel: count(config, 'expandLevel', 1),
      selectable: flag(config, 'selectable', false),
      onSelectTool: text(config, 'onSelectTool'),
    },
  };
}
