import { count, flag, record, text } from './config-values.js';
import { heading, MESSAGE_BOX, type TemplateParts } from './html.js';

const CSS = `
.progress-bar { height: 10px; background: var(--color-background-tertiary); border-radius: var(--border-radius-full);
  overflow: hidden; }
.progress-fill { height: 100%; width: 0; background: var(--color-text-success); transition: width 0.3s ease; }
.progress-text { margin-top: 6px; font-size: var(--font-text-sm-size); color: var(--color-text-secondary); }
#currentStep { margin-top: 10px; }
#stepList { margin: 10px 0 0; padding-left: 20px; }
#stepList li.done::marker { content: "✓  "; color: var(--color-text-success); }
#stepList li.failed::marker { content: "✗  "; color: var(--color-text-danger); }
.actions { margin-top: 14px; }
`;

const SCRIPT = `(function (app) {
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
})(window.mcpApp);`;

/**
 * `progress` (original-behaviour §4.7): a bar, the current step and the steps so far, from
 * the tool result (`progress`/`percent` with an optional `total`, `message`, `steps`, `done`),
 * optionally polling `statusTool` every `pollIntervalMs`; `cancelTool` gets a two-click Cancel
 * button (sandboxed views cannot open confirm dialogs).
 */
export function progressTemplate(config: Record<string, unknown>): TemplateParts {
  const title = text(config, 'title', 'Progress');
  const showPercentage = flag(config, 'showPercentage', true);
  const showCurrentStep = flag(config, 'showCurrentStep', true);
  const cancelTool = text(config, 'cancelTool');
  const body = [
    heading(title),
    MESSAGE_BOX,
    '<div class="progress-container">',
    '<div class="progress-bar" id="progressBar" role="progressbar" ' +
      'aria-valuemin="0" aria-valuemax="100" aria-valuenow="0">' +
      '<div class="progress-fill" id="progressFill"></div></div>',
    showPercentage ? '<div class="progress-text"><span id="progressPercent">0</span>% complete</div>' : '',
    '</div>',
    showCurrentStep ? '<div id="currentStep" class="muted">Waiting for the tool…</div>' : '',
    '<ol id="stepList"></ol>',
    cancelTool ? '<div class="actions"><button type="button" id="cancelBtn">Cancel</button></div>' : '',
  ];
  return {
    title,
    css: CSS,
    body: body.filter((line) => line !== '').join('\n'),
    script: SCRIPT,
    config: {
      showCurrentStep,
      statusTool: text(config, 'statusTool'),
      statusArgs: record(config, 'statusArgs'),
      pollIntervalMs: count(config, 'pollIntervalMs', 1000, 100),
      cancelTool,
      cancelArgs: record(config, 'cancelArgs'),
      cancelConfirm: text(config, 'cancelConfirm', 'Click again to cancel'),
    },
  };
}
