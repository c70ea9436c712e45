(function (app) {
  var config = app.config;
  var form = document.getElementById('form');
  var message = document.getElementById('message');
  var submit = document.getElementById('submitBtn');
  var cancel = document.getElementById('cancelBtn');
  function input(field) { return form.elements.namedItem(field.name); }
  function fill(values) {
    if (!values || typeof values !== 'object') return;
    config.fields.forEach(function (field) {
      if (!(field.name in values)) return;
      var node = input(field);
      if (!node) return;
      if (field.type === 'checkbox') node.checked = values[field.name] === true || values[field.name] === 'true';
      else node.value = values[field.name] === null ? '' : String(values[field.name]);
    });
  }
  function collect() {
    var values = {};
    config.fields.forEach(function (field) {
      var node = input(field);
      if (!node) return;
      if (field.type === 'checkbox') { values[field.name] = node.checked; return; }
      if (node.value === '') return;
      values[field.name] = field.type === 'number' && !isNaN(Number(node.value)) ? Number(node.value) : node.value;
    });
    return values;
  }
  app.onToolInput(fill);
  app.onToolResult(function (result) { var data = app.dataOf(result); if (data && data.values) fill(data.values); });
  form.addEventListener('submit', function (event) {
    event.preventDefault();
    if (!config.submitTool) {
      app.showMessage(message, 'This form has no submitTool to send its values to.', 'error');
      return;
    }
    var values = collect();
    var args = Object.assign({}, config.submitArgs, values);
    submit.disabled = true;
    submit.textContent = 'Submitting…';
    app.callTool(config.submitTool, args).then(function (result) {
      var detail = app.textOf(result).trim();
      if (result && result.isError) throw new Error(detail || 'The tool reported an error');
      app.showMessage(message, config.successMessage || detail || 'Submitted.', 'success');
      app.updateModelContext('The user submitted the form "' + config.title + '": ' + JSON.stringify(values), values)
        .catch(function () {});
    }).catch(function (error) {
      app.showMessage(message, 'Error: ' + (error && error.message ? error.message : String(error)), 'error');
    }).then(function () {
      submit.disabled = false;
      submit.textContent = config.submitLabel;
    });
  });
  if (cancel) cancel.addEventListener('click', function () {
    form.reset();
    app.showMessage(message, 'Cancelled.', 'success');
    app.updateModelContext('The user cancelled the form "' + config.title + '".').catch(function () {});
  });
  app.connect({ name: 'mcp-bash form', version: '1.0.0' });
})(window.mcpApp);
