import { posix } from 'node:path';
import { isObject } from '../../json/objects.js';
import { CSP_KEYS, uiMeta } from '../../schemas/ui-files.js';
import type { JsonObject } from '../../spec/types.js';
import { isTemplateName } from '../../ui-templates/template-names.js';
import { screenMetadata } from '../../validation/metadata-check.js';
import type { UiCsp, UiResourceDefinition, UiResourceMeta } from './ui-resource.js';

export const DEFAULT_ENTRYPOINT = 'index.html';

/** What ui.meta.json contributes to a UI resource. */
export type UiMetadataFields = Omit<UiResourceDefinition, 'name' | 'uri' | 'source'>;

/**
 * An entrypoint stays inside its UI directory: a relative path without `..` segments
 * (symlinks are checked again when the file is read).
 */
export function safeEntrypoint(value: string): string | undefined {
  if (value === '' || value.includes('\0') || value.includes('\\') || posix.isAbsolute(value)) return undefined;
  const normalized = posix.normalize(value);
  return normalized.split('/').includes('..') || normalized === '.' ? undefined : normalized;
}

/** CSP lists (already checked against the format): every list present, 1.x's shape. */
function cspFrom(value: unknown): UiCsp {
  const csp: UiCsp = { connectDomains: [], resourceDomains: [], frameDomains: [], baseUriDomains: [] };
  if (!isObject(value)) return csp;
  for (const key of CSP_KEYS) if (Array.isArray(value[key])) csp[key] = value[key] as string[];
  return csp;
}

/** `meta` of ui.meta.json (already checked): CSP, permissions, border, domain. */
function resourceMetaFrom(value: unknown): UiResourceMeta {
  const meta = isObject(value) ? value : {};
  const ui: UiResourceMeta = {
    csp: cspFrom(meta.csp),
    permissions: isObject(meta.permissions) ? meta.permissions : {},
    prefersBorder: typeof meta.prefersBorder === 'boolean' ? meta.prefersBorder : true,
  };
  if (typeof meta.domain === 'string' && meta.domain !== '') ui.domain = meta.domain;
  return ui;
}

function templateFields(raw: JsonObject): Partial<UiMetadataFields> {
  if (!isTemplateName(raw.template)) return {};
  return { template: raw.template, ...(isObject(raw.config) ? { config: raw.config } : {}) };
}

/**
 * ui.meta.json (original-behaviour §6.7) as the fields of a UI resource, with 1.x's
 * defaults: description `UI resource for <name>`, entrypoint index.html, prefersBorder
 * true, empty CSP lists. The ui.meta.json format's checks come first (schemas/ui-files.ts,
 * the ones validate reports): a bad value is dropped with a warning and its default applies.
 */
export function normalizeUiMetadata(
  metadata: JsonObject,
  name: string,
  owner: string,
): { fields: UiMetadataFields; warnings: string[] } {
  const screen = screenMetadata(uiMeta, metadata);
  const warnings = screen.warnings.map((warning) => `${owner}: ${warning}`);
  const raw = screen.value ?? {};
  let entrypoint = DEFAULT_ENTRYPOINT;
  if (typeof raw.entrypoint === 'string') {
    // The format refuses paths that leave the directory; this also normalises the path.
    const safe = safeEntrypoint(raw.entrypoint);
    if (safe) entrypoint = safe;
    else warnings.push(`${owner}: entrypoint must be a relative path inside the UI directory; using index.html`);
  }
  const fields: UiMetadataFields = {
    description:
      typeof raw.description === 'string' && raw.description !== '' ? raw.description : `UI resource for ${name}`,
    entrypoint,
    ...templateFields(raw),
    ui: resourceMetaFrom(raw.meta),
  };
  if (typeof raw.title === 'string' && raw.title !== '') fields.title = raw.title;
  return { fields, warnings };
}
