import { posix } from 'node:path';
import { isObject } from '../../json/objects.js';
import type { JsonObject } from '../../mcp/types.js';
import { isTemplateName, TEMPLATE_NAMES } from '../../ui-templates/template-names.js';
import type { UiCsp, UiResourceDefinition, UiResourceMeta } from './ui-resource.js';

/** The CSP lists of `meta.csp` (MCP Apps `McpUiResourceCsp`). */
export const CSP_KEYS = ['connectDomains', 'resourceDomains', 'frameDomains', 'baseUriDomains'] as const;

/** The sandbox permissions MCP Apps defines (`McpUiResourcePermissions`). */
export const PERMISSION_KEYS = ['camera', 'microphone', 'geolocation', 'clipboardWrite'] as const;

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

function cspFrom(value: unknown, warnings: string[], owner: string): UiCsp {
  const csp: UiCsp = { connectDomains: [], resourceDomains: [], frameDomains: [], baseUriDomains: [] };
  if (value === undefined) return csp;
  if (!isObject(value)) {
    warnings.push(`${owner}: meta.csp must be an object; ignored`);
    return csp;
  }
  for (const [key, list] of Object.entries(value)) {
    if (!(CSP_KEYS as readonly string[]).includes(key)) {
      warnings.push(`${owner}: meta.csp.${key} is not an MCP Apps CSP field (${CSP_KEYS.join(', ')}); ignored`);
      continue;
    }
    if (!Array.isArray(list) || list.some((origin) => typeof origin !== 'string' || origin.trim() === '')) {
      warnings.push(`${owner}: meta.csp.${key} must be an array of origins (strings); ignored`);
      continue;
    }
    csp[key as keyof UiCsp] = list as string[];
  }
  return csp;
}

function permissionsFrom(value: unknown, warnings: string[], owner: string): JsonObject {
  if (value === undefined) return {};
  if (!isObject(value)) {
    warnings.push(`${owner}: meta.permissions must be an object; ignored`);
    return {};
  }
  const permissions: JsonObject = {};
  for (const [key, setting] of Object.entries(value)) {
    if ((PERMISSION_KEYS as readonly string[]).includes(key) && isObject(setting)) permissions[key] = setting;
    else
      warnings.push(
        `${owner}: meta.permissions.${key} ignored (MCP Apps knows ${PERMISSION_KEYS.join(', ')}, each an object such as {})`,
      );
  }
  return permissions;
}

/** `meta` of ui.meta.json: CSP (every list present, 1.x's shape), permissions, border, domain. */
function resourceMetaFrom(value: unknown, warnings: string[], owner: string): UiResourceMeta {
  const meta = isObject(value) ? value : {};
  if (value !== undefined && !isObject(value)) warnings.push(`${owner}: meta must be an object; ignored`);
  const ui: UiResourceMeta = {
    csp: cspFrom(meta.csp, warnings, owner),
    permissions: permissionsFrom(meta.permissions, warnings, owner),
    prefersBorder: true,
  };
  if (typeof meta.prefersBorder === 'boolean') ui.prefersBorder = meta.prefersBorder;
  else if (meta.prefersBorder !== undefined) warnings.push(`${owner}: meta.prefersBorder must be true or false`);
  if (typeof meta.domain === 'string' && meta.domain !== '') ui.domain = meta.domain;
  return ui;
}

function templateFields(raw: JsonObject, warnings: string[], owner: string): Partial<UiMetadataFields> {
  if (raw.template === undefined) return {};
  if (!isTemplateName(raw.template)) {
    warnings.push(`${owner}: template ${JSON.stringify(raw.template)} is unknown (${TEMPLATE_NAMES.join(', ')})`);
    return {};
  }
  if (raw.config !== undefined && !isObject(raw.config)) {
    warnings.push(`${owner}: config must be an object; the template's defaults are used`);
    return { template: raw.template };
  }
  return { template: raw.template, ...(isObject(raw.config) ? { config: raw.config } : {}) };
}

/**
 * ui.meta.json (original-behaviour §6.7) as the fields of a UI resource, with 1.x's
 * defaults: description `UI resource for <name>`, entrypoint index.html, prefersBorder
 * true, empty CSP lists. Bad fields fall back to their defaults with a warning.
 */
export function normalizeUiMetadata(
  raw: JsonObject,
  name: string,
  owner: string,
): { fields: UiMetadataFields; warnings: string[] } {
  const warnings: string[] = [];
  let entrypoint = DEFAULT_ENTRYPOINT;
  if (raw.entrypoint !== undefined) {
    const safe = typeof raw.entrypoint === 'string' ? safeEntrypoint(raw.entrypoint) : undefined;
    if (safe) entrypoint = safe;
    else warnings.push(`${owner}: entrypoint must be a relative path inside the UI directory; using index.html`);
  }
  const fields: UiMetadataFields = {
    description:
      typeof raw.description === 'string' && raw.description !== '' ? raw.description : `UI resource for ${name}`,
    entrypoint,
    ...templateFields(raw, warnings, owner),
    ui: resourceMetaFrom(raw.meta, warnings, owner),
  };
  if (typeof raw.title === 'string' && raw.title !== '') fields.title = raw.title;
  return { fields, warnings };
}
