(function (app) {
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
})(window.mcpApp);
