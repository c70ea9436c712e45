import SCRIPT from '../../assets/ui-templates/kanban.browser.js' with { type: 'text' };
import CSS from '../../assets/ui-templates/kanban.css' with { type: 'text' };
import { flag, objects, text } from './config-values.js';
import { escapeHtml, heading, MESSAGE_BOX, type TemplateParts } from './html.js';

interface Column {
  id: string;
  title: string;
}

const DEFAULT_COLUMNS: Column[] = [
  { id: 'todo', title: 'To Do' },
  { id: 'in-progress', title: 'In Progress' },
  { id: 'done', title: 'Done' },
];

function columnsOf(config: Record<string, unknown>): Column[] {
  const columns = objects(config, 'columns').flatMap((raw) => {
    const id = text(raw, 'id');
    return id === '' ? [] : [{ id, title: text(raw, 'title') || id }];
  });
  return columns.length > 0 ? columns : DEFAULT_COLUMNS;
}

function columnMarkup(column: Column): string {
  return [
    `<section class="kanban-column" data-column-id="${escapeHtml(column.id)}">`,
    `<div class="kanban-column-header"><span>${escapeHtml(column.title)}</span>` +
      '<span class="kanban-column-count">0</span></div>',
    '<div class="kanban-column-body"><div class="kanban-empty">No cards</div></div>',
    '</section>',
  ].join('');
}

/**
 * `kanban` (original-behaviour §4.7): cards (`id`, `title`, `description`, `column`/`status`,
 * `tags`, `priority`, `assignee`) from the tool result in the configured columns; a card
 * moved by drag and drop or its "Move card" list calls `onMoveTool` {cardId, fromColumn,
 * toColumn}, a click calls `onCardClickTool` {cardId}.
 */
export function kanbanTemplate(config: Record<string, unknown>): TemplateParts {
  const title = text(config, 'title', 'Kanban Board');
  const columns = columnsOf(config);
  const body = [
    heading(title),
    MESSAGE_BOX,
    `<div id="kanbanBoard" class="kanban-container">${columns.map(columnMarkup).join('')}</div>`,
  ];
  return {
    title,
    css: CSS,
    body: body.join('\n'),
    script: SCRIPT,
    config: {
      columns,
      draggable: flag(config, 'draggable', true),
      onMoveTool: text(config, 'onMoveTool'),
      onCardClickTool: text(config, 'onCardClickTool'),
    },
  };
}
