/**
 * JSON Schemas (2020-12) of the MCP Apps files of a project: `ui.meta.json`, the `config` of
 * each template, and a tool's `_meta.ui`. The field names are 1.x's (original-behaviour §6.7)
 * and MCP Apps' (`McpUiResourceMeta`, `McpUiToolMeta`). Validate and the server read them
 * alike (D193): no problem costs the view or tool; the bad value is dropped with a warning
 * and its default applies.
 */
import { FORM_FIELD_TYPES, TEMPLATE_NAMES } from '../ui-templates/template-names.js';
import type { MetaFormat } from './meta-files.js';

const origins = { type: 'array', items: { type: 'string', minLength: 1 } } as const;

/** The CSP lists of `meta.csp` (MCP Apps `McpUiResourceCsp`). */
export const CSP_KEYS = ['connectDomains', 'resourceDomains', 'frameDomains', 'baseUriDomains'] as const;

/** `{key: schema}` for each key. */
const objectOf = (keys: readonly string[], schema: object) => Object.fromEntries(keys.map((key) => [key, schema]));

/** `tools/<tool>/ui/ui.meta.json` and `ui/<name>/ui.meta.json` */
const uiMetaSchema = {
  $schema: 'https://json-schema.org/draft/2020-12/schema',
  title: 'mcp-bash ui.meta.json',
  type: 'object',
  properties: {
    description: { type: 'string' },
    title: { type: 'string' },
    entrypoint: { type: 'string', minLength: 1, not: { pattern: '(^/|^\\.\\.?$|(^|/)\\.\\.(/|$)|\\\\)' } },
    template: { enum: [...TEMPLATE_NAMES] },
    config: { type: 'object' },
    meta: {
      type: 'object',
      properties: {
        csp: { type: 'object', properties: objectOf(CSP_KEYS, origins), additionalProperties: false },
        permissions: {
          type: 'object',
          properties: objectOf(['camera', 'microphone', 'geolocation', 'clipboardWrite'], { type: 'object' }),
          additionalProperties: false,
        },
        prefersBorder: { type: 'boolean' },
        domain: { type: 'string' },
      },
    },
  },
} as const;

/** A tool's `_meta.ui` (MCP Apps `McpUiToolMeta`). */
const toolUiMetaSchema = {
  $schema: 'https://json-schema.org/draft/2020-12/schema',
  title: 'MCP Apps tool _meta.ui',
  type: 'object',
  properties: {
    resourceUri: { type: 'string', pattern: '^ui://' },
    visibility: { type: 'array', items: { enum: ['model', 'app'] }, uniqueItems: true },
  },
} as const;

const toolName = { type: 'string', minLength: 1 } as const;
const text = { type: 'string' } as const;

/** The `config` of each template; unknown keys are allowed (1.x configs carry notes). */
const templateConfigSchemas: Readonly<Record<(typeof TEMPLATE_NAMES)[number], object>> = {
  form: {
    type: 'object',
    properties: {
      title: text,
      description: text,
      submitTool: toolName,
      submitLabel: text,
      submitArgs: { type: 'object' },
      cancelable: { type: 'boolean' },
      fields: {
        type: 'array',
        items: {
          type: 'object',
          required: ['name'],
          properties: {
            name: { type: 'string', minLength: 1 },
            type: { enum: [...FORM_FIELD_TYPES] },
            label: text,
            required: { type: 'boolean' },
            placeholder: text,
            options: { type: 'array', items: { type: ['string', 'number', 'object'] } },
          },
        },
      },
    },
  },
  'data-table': {
    type: 'object',
    properties: {
      title: text,
      rowsKey: text,
      emptyText: text,
      rows: { type: 'array' },
      columns: {
        type: 'array',
        items: {
          type: 'object',
          required: ['key'],
          properties: { key: { type: 'string', minLength: 1 }, label: text, sortable: { type: 'boolean' } },
        },
      },
    },
  },
  progress: {
    type: 'object',
    properties: {
      title: text,
      showPercentage: { type: 'boolean' },
      showCurrentStep: { type: 'boolean' },
      statusTool: toolName,
      statusArgs: { type: 'object' },
      pollIntervalMs: { type: 'number', minimum: 100 },
      cancelTool: toolName,
      cancelArgs: { type: 'object' },
      cancelConfirm: text,
    },
  },
  'diff-viewer': {
    type: 'object',
    properties: {
      title: text,
      viewMode: { enum: ['split', 'unified'] },
      showLineNumbers: { type: 'boolean' },
      leftTitle: text,
      rightTitle: text,
    },
  },
  'tree-view': {
    type: 'object',
    properties: {
      title: text,
      showIcons: { type: 'boolean' },
      expandLevel: { type: 'integer', minimum: 0 },
      selectable: { type: 'boolean' },
      searchable: { type: 'boolean' },
      onSelectTool: toolName,
    },
  },
  kanban: {
    type: 'object',
    properties: {
      title: text,
      draggable: { type: 'boolean' },
      onMoveTool: toolName,
      onCardClickTool: toolName,
      columns: {
        type: 'array',
        items: { type: 'object', required: ['id'], properties: { id: { type: 'string', minLength: 1 }, title: text } },
      },
    },
  },
};

/** ui.meta.json (project/ui/ui-metadata.ts): a CSP list goes whole, an unknown key alone. */
export const uiMeta: MetaFormat = {
  schema: uiMetaSchema,
  rejectAt: [],
  dropWhole: CSP_KEYS.map((list) => `/meta/csp/${list}`),
  sentences: {
    '/entrypoint': () => 'entrypoint must be a relative path inside the UI directory (index.html is used)',
    '/template': (value) => `template ${JSON.stringify(value)} is unknown (${TEMPLATE_NAMES.join(', ')})`,
    '/config': () => "config must be an object (the template's defaults are used)",
    '/meta': () => 'meta must be an object',
    '/meta/csp': () => 'meta.csp must be an object',
    '/meta/permissions': () => 'meta.permissions must be an object',
    '/meta/prefersBorder': () => 'meta.prefersBorder must be true or false',
    ...Object.fromEntries(
      CSP_KEYS.map((list) => [`/meta/csp/${list}`, () => `meta.csp.${list} must be an array of origins (strings)`]),
    ),
  },
};

/** A tool's `_meta.ui` (project/ui/tool-ui-meta.ts): a bad visibility list goes whole (a part could hide the tool). */
export const toolUiMeta: MetaFormat = { schema: toolUiMetaSchema, rejectAt: [], dropWhole: ['/visibility'] };

/** Each template's `config` (project/ui/ui-metadata.ts): a field without a name, a column that is no object. */
export const templateConfigFormats = Object.fromEntries(
  Object.entries(templateConfigSchemas).map(([name, schema]): [string, MetaFormat] => [
    name,
    { schema: schema as Record<string, unknown>, rejectAt: [] },
  ]),
) as Readonly<Record<(typeof TEMPLATE_NAMES)[number], MetaFormat>>;
