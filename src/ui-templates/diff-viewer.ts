import SCRIPT from '../../assets/ui-templates/diff-viewer.browser.js' with { type: 'text' };
import CSS from '../../assets/ui-templates/diff-viewer.css' with { type: 'text' };
import { flag, text } from './config-values.js';
import { heading, type TemplateParts } from './html.js';

/**
 * `diff-viewer` (original-behaviour §4.7): a split or unified line diff of the tool result's
 * `left`/`right` (or `original`/`modified`), of a unified diff (`diff`/`patch`, or plain text),
 * or of jsdiff-style `changes`, computed in the view.
 */
export function diffViewerTemplate(config: Record<string, unknown>): TemplateParts {
  const title = text(config, 'title', 'Diff Viewer');
  const viewMode = text(config, 'viewMode') === 'unified' ? 'unified' : 'split';
  const body = [
    heading(title),
    '<div class="diff-header"><span id="diffStats"></span>',
    `<button type="button" id="splitBtn"${viewMode === 'split' ? ' class="active"' : ''}>Split</button>`,
    `<button type="button" id="unifiedBtn"${viewMode === 'unified' ? ' class="active"' : ''}>Unified</button></div>`,
    '<div class="diff-panels"><div class="diff-panel" id="diffPanel">' +
      '<div class="diff-empty">Waiting for data…</div></div></div>',
  ];
  return {
    title,
    css: CSS,
    body: body.join('\n'),
    script: SCRIPT,
    config: {
      viewMode,
      showLineNumbers: flag(config, 'showLineNumbers', true),
      leftTitle: text(config, 'leftTitle', 'Original'),
      rightTitle: text(config, 'rightTitle', 'Modified'),
    },
  };
}
