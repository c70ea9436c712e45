/** The UI templates `ui.meta.json` may name (1.x's generators, original-behaviour §4.7). */
export const TEMPLATE_NAMES = ['form', 'data-table', 'progress', 'diff-viewer', 'tree-view', 'kanban'] as const;

export type TemplateName = (typeof TEMPLATE_NAMES)[number];

export function isTemplateName(value: unknown): value is TemplateName {
  return typeof value === 'string' && (TEMPLATE_NAMES as readonly string[]).includes(value);
}

/** The input types of `form` fields (1.x's seven, plus the other HTML inputs that make sense). */
export const FORM_FIELD_TYPES = [
  'text',
  'email',
  'number',
  'date',
  'time',
  'datetime-local',
  'url',
  'tel',
  'password',
  'color',
  'textarea',
  'select',
  'checkbox',
] as const;
