(function (app) {
  var config = app.config;
  var bar = document.getElementById('progressBar');
  var fill = document.getElementById('progressFill');
  var percentNode = document.getElementById('progressPercent');
  var stepNode = document.getElementById('currentStep');
  var list = document.getElementById('stepList');
  var message = document.getElementById('message');
  var cancel = document.getElementById('cancelBtn');
  var seen = [];
  var finished = false;
  var timer = null;
  var armed = false;

  function number(value) { return typeof value === 'number' && isFinite(value) ? value : undefined; }
  function percentOf(data) {
    var progress = number(data.progress);
    if (progress === undefined) progress = number(data.percent);
    if (progress === undefined) return undefined;
    var total = number(data.total);
    var value = total ? (progress / total) * 100 : progress;
    return Math.max(0, Math.min(100, value));
  }
  function renderSteps(steps) {
    list.textContent = '';
    steps.forEach(function (step) {
      var label = typeof step === 'string' ? step : (step && (step.label || step.name || step.message)) || '';
      var status = step && typeof step === 'object' ? (step.status || (step.done ? 'done' : '')) : 'done';
      list.appendChild(app.el('li', { text: label, className: status }));
    });
  }
  function update(data) {
    if (!data || typeof data !== 'object') return;
    var percent = percentOf(data);
    var done = data.done === true || data.complete === true || data.status === 'done' || data.status === 'complete';
    if (done && percent === undefined) percent = 100;
    if (percent !== undefined) {
      fill.style.width = percent + '%';
      bar.setAttribute('aria-valuenow', String(Math.round(percent)));
      if (percentNode) percentNode.textContent = String(Math.round(percent));
    }
    var text = data.message || data.step;
    if (text && stepNode && config.showCurrentStep) stepNode.textContent = String(text);
    if (Array.isArray(data.steps)) renderSteps(data.steps);
    else if (text && seen.indexOf(String(text)) < 0) { seen.push(String(text)); renderSteps(seen); }
    if (data.error) { app.showMessage(message, String(data.error), 'error'); finish(); }
    else if (done) { app.showMessage(message, String(data.doneMessage || 'Done.'), 'success'); finish(); }
  }
  function finish() {
    finished = true;
    if (timer) clearTimeout(timer);
    if (cancel) cancel.disabled = true;
  }
  function poll() {
    if (finished || !config.statusTool) return;
    app.callTool(config.statusTool, config.statusArgs).then(function (result) {
      if (result && result.isError) throw new Error(app.textOf(result) || 'status tool failed');
      update(app.dataOf(result));
    }).catch(function (error) {
      app.showMessage(message, 'Status: ' + error.message, 'error');
    }).then(function () {
      if (!finished) timer = setTimeout(poll, config.pollIntervalMs);
    });
  }
  app.onToolResult(function (result) { update(app.dataOf(result) || { message: app.textOf(result) }); });
  app.onToolCancelled(function (params) {
    app.showMessage(message, 'Cancelled' + (params.reason ? ': ' + params.reason : ''), 'error');
    finish();
  });
  if (cancel) cancel.addEventListener('click', function () {
    if (!armed) {
      armed = true;
      cancel.textContent = config.cancelConfirm;
      setTimeout(function () { armed = false; cancel.textContent = 'Cancel'; }, 5000);
      return;
    }
    cancel.disabled = true;
    app.callTool(config.cancelTool, config.cancelArgs).then(function (result) {
      if (result && result.isError) throw new Error(app.textOf(result) || 'cancel tool failed');
      app.showMessage(message, 'Cancelled.', 'success');
      finish();
    }).catch(function (error) {
      cancel.disabled = false;
      app.showMessage(message, 'Could not cancel: ' + error.message, 'error');
    });
  });
  app.connect({ name: 'mcp-bash progress', version: '1.0.0' }).then(function () {
    if (config.statusTool) timer = setTimeout(poll, config.pollIntervalMs);
  });
})(window.mcpApp);
