import SCRIPT from '../../assets/ui-templates/progress.browser.js' with { type: 'text' };
import CSS from '../../assets/ui-templates/progress.css' with { type: 'text' };
import { count, flag, record, text } from './config-values.js';
import { heading, MESSAGE_BOX, type TemplateParts } from './html.js';

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
