import SCRIPT from '../../assets/ui-templates/form.browser.js' with { type: 'text' };
import CSS from '../../assets/ui-templates/form.css' with { type: 'text' };
import { titleFromName } from '../content/display-names.js';
import { flag, objects, record, text } from './config-values.js';
import { escapeHtml, heading, MESSAGE_BOX, type TemplateParts } from './html.js';
import { FORM_FIELD_TYPES } from './template-names.js';

const INPUT_TYPES: ReadonlySet<string> = new Set(FORM_FIELD_TYPES);

interface Field {
  name: string;
  type: string;
  label: string;
  required: boolean;
  placeholder: string;
  default: string;
  options: Array<{ value: string; label: string }>;
  description: string;
}

function optionsOf(value: unknown): Field['options'] {
  if (!Array.isArray(value)) return [];
  return value.flatMap((option) => {
    if (typeof option === 'string' || typeof option === 'number')
      return [{ value: String(option), label: String(option) }];
    if (option && typeof option === 'object' && 'value' in option) {
      const { value: v, label } = option as { value: unknown; label?: unknown };
      return [{ value: String(v), label: typeof label === 'string' ? label : String(v) }];
    }
    return [];
  });
}

function fieldOf(raw: Record<string, unknown>): Field | undefined {
  const name = text(raw, 'name');
  if (name === '') return undefined;
  const type = text(raw, 'type', 'text');
  const fallback = raw.default;
  return {
    name,
    type: INPUT_TYPES.has(type) ? type : 'text',
    label: text(raw, 'label') || titleFromName(name),
    required: flag(raw, 'required', false),
    placeholder: text(raw, 'placeholder'),
    default: fallback === undefined || fallback === null ? '' : String(fallback),
    options: optionsOf(raw.options),
    description: text(raw, 'description'),
  };
}

function control(field: Field): string {
  const id = `field-${escapeHtml(field.name)}`;
  const name = escapeHtml(field.name);
  const required = field.required ? ' required' : '';
  const placeholder = field.placeholder ? ` placeholder="${escapeHtml(field.placeholder)}"` : '';
  if (field.type === 'select') {
    const options = field.options
      .map(
        (option) =>
          `<option value="${escapeHtml(option.value)}"${option.value === field.default ? ' selected' : ''}>` +
          `${escapeHtml(option.label)}</option>`,
      )
      .join('');
    return (
      `<select id="${id}" name="${name}"${required}>${field.required ? '' : '<option value=""></option>'}` +
      `${options}</select>`
    );
  }
  if (field.type === 'textarea')
    return (
      `<textarea id="${id}" name="${name}" rows="4"${placeholder}${required}>` +
      `${escapeHtml(field.default)}</textarea>`
    );
  if (field.type === 'checkbox')
    return `<input type="checkbox" id="${id}" name="${name}"${field.default === 'true' ? ' checked' : ''}>`;
  return (
    `<input type="${field.type}" id="${id}" name="${name}" ` +
    `value="${escapeHtml(field.default)}"${placeholder}${required}>`
  );
}

function fieldMarkup(field: Field): string {
  const star = field.required ? ' <span class="required" aria-hidden="true">*</span>' : '';
  const hint = field.description ? `<div class="hint">${escapeHtml(field.description)}</div>` : '';
  const label = `<label for="field-${escapeHtml(field.name)}">${escapeHtml(field.label)}${star}</label>`;
  const group = field.type === 'checkbox' ? 'form-group checkbox' : 'form-group';
  return `<div class="${group}">${label}${control(field)}${hint}</div>`;
}

/**
 * `form` (original-behaviour §4.7): labelled inputs rendered on the server; on submit the
 * values (plus `submitArgs`) go to `submitTool` as a tools/call through the host. The tool's
 * input and a result's `values` prefill the fields.
 */
export function formTemplate(config: Record<string, unknown>): TemplateParts {
  const title = text(config, 'title', 'Form');
  const fields = objects(config, 'fields').flatMap((raw) => fieldOf(raw) ?? []);
  const submitLabel = text(config, 'submitLabel', 'Submit');
  const description = text(config, 'description');
  const cancelable = flag(config, 'cancelable', false);
  const body = [
    heading(title),
    description ? `<p class="lead">${escapeHtml(description)}</p>` : '',
    MESSAGE_BOX,
    '<form id="form">',
    ...fields.map(fieldMarkup),
    '<div class="actions">',
    cancelable ? '<button type="button" id="cancelBtn">Cancel</button>' : '',
    `<button type="submit" id="submitBtn" class="primary">${escapeHtml(submitLabel)}</button>`,
    '</div>',
    '</form>',
  ];
  return {
    title,
    css: CSS,
    body: body.filter((line) => line !== '').join('\n'),
    script: SCRIPT,
    config: {
      title,
      fields: fields.map(({ name, type }) => ({ name, type })),
      submitTool: text(config, 'submitTool'),
      submitArgs: record(config, 'submitArgs'),
      submitLabel,
      successMessage: text(config, 'successMessage'),
    },
  };
}
