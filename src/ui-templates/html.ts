// The style every template shares, and the view side of MCP Apps (each described in its file).

import APP_BRIDGE_SCRIPT from '../../assets/ui-templates/app-bridge.browser.js' with { type: 'text' };
import BASE_STYLE from '../../assets/ui-templates/base.css' with { type: 'text' };

/** Text for HTML element content and attribute values. */
export function escapeHtml(text: string): string {
  return text
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;')
    .replace(/'/g, '&#39;');
}

/**
 * JSON that can sit inside a `<script>` element: `<` is escaped (no `</script>` or `<!--`
 * can end or confuse it), as are the line separators JavaScript once treated as newlines.
 */
function scriptJson(value: unknown): string {
  return JSON.stringify(value ?? null)
    .replace(/</g, '\\u003c')
    .replace(/\u2028/g, '\\u2028')
    .replace(/\u2029/g, '\\u2029');
}

/** The page's heading. */
export function heading(title: string): string {
  return `<h2>${escapeHtml(title)}</h2>`;
}

/** Where templates show a tool's answer or an error (`mcpApp.showMessage`). */
export const MESSAGE_BOX = '<div id="message" class="message hidden" role="status" aria-live="polite"></div>';

/** What a template contributes to its document. */
export interface TemplateParts {
  readonly title: string;
  /** Extra CSS after the shared base style. */
  readonly css: string;
  /** Markup rendered on the server (escaped by the template). */
  readonly body: string;
  /** The template's script; it runs after the bridge, with `mcpApp` and `mcpApp.config`. */
  readonly script: string;
  /** Handed to the script as `mcpApp.config`. */
  readonly config: unknown;
}

/**
 * A self-contained HTML5 document: no external script, style or font, so the host's
 * default MCP Apps CSP (`script-src 'self' 'unsafe-inline'`) is all it needs. The inline
 * bridge speaks the MCP Apps protocol with the host; the template's script builds on it.
 */
export function htmlDocument(parts: TemplateParts): string {
  return [
    '<!DOCTYPE html>',
    '<html lang="en">',
    '<head>',
    '<meta charset="utf-8">',
    '<meta name="viewport" content="width=device-width, initial-scale=1">',
    `<title>${escapeHtml(parts.title)}</title>`,
    `<style>${BASE_STYLE}${parts.css}</style>`,
    '</head>',
    '<body>',
    parts.body,
    `<script type="application/json" id="mcp-app-config">${scriptJson(parts.config)}</script>`,
    `<script>${APP_BRIDGE_SCRIPT}</script>`,
    `<script>${parts.script}</script>`,
    '</body>',
    '</html>',
    '',
  ].join('\n');
}
