import SCRIPT from '../../assets/ui-templates/starter.browser.js' with { type: 'text' };
import CSS from '../../assets/ui-templates/starter.css' with { type: 'text' };
import { heading, htmlDocument } from './html.js';

/* The page's own script, meant to be edited: it shows what the host hands the view. */
/**
 * The `index.html` that `scaffold ui` and `scaffold tool --ui` write: a working MCP Apps view
 * (the inline bridge, the host's theme) that shows the tool's input and result, ready to edit.
 */
export function starterPage(title: string): string {
  return htmlDocument({
    title,
    css: CSS,
    body: [
      heading(title),
      '<section><h3>Result</h3><pre id="toolResult">Waiting for the tool…</pre></section>',
      '<section><h3>Input</h3><pre id="toolInput">{}</pre></section>',
    ].join('\n'),
    script: SCRIPT,
    config: {},
  });
}
