import { heading, htmlDocument } from './html.js';

const CSS = `
pre { margin: 0; padding: 10px; overflow: auto; font-family: var(--font-mono); font-size: var(--font-text-sm-size);
  background: var(--color-background-secondary); border-radius: var(--border-radius-md); }
section { margin-bottom: 14px; }
h3 { margin: 0 0 6px; font-size: var(--font-text-md-size); }
`;

/* The page's own script, meant to be edited: it shows what the host hands the view. */
const SCRIPT = `(function (app) {
  // Edit this script to render your tool's data. The MCP Apps bridge above provides:
  //   app.onToolInput(fn)    the arguments the tool was called with
  //   app.onToolResult(fn)   the tool's result (content, structuredContent, _meta)
  //   app.dataOf(result)     structuredContent, or the text content parsed as JSON
  //   app.callTool(name, args)            a tools/call through the host (a Promise)
  //   app.updateModelContext(text[, data]) tell the model what the user did here
  //   app.el(tag, props, children)        build elements without innerHTML
  // Theme: use the host's CSS variables (--color-text-primary, --font-sans, ...).
  var input = document.getElementById('toolInput');
  var output = document.getElementById('toolResult');
  app.onToolInput(function (args) { input.textContent = JSON.stringify(args, null, 2); });
  app.onToolResult(function (result) {
    var data = app.dataOf(result);
    output.textContent = data === undefined ? app.textOf(result) : JSON.stringify(data, null, 2);
  });
  app.connect({ name: document.title, version: '1.0.0' });
})(window.mcpApp);`;

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
