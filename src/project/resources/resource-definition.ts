import { mimeFromPath } from '../../content/mime.js';
import { isObject } from '../../json/objects.js';
import { resourceMeta } from '../../schemas/meta-files.js';
import type { Annotations, Icon, JsonObject } from '../../spec/types.js';
import { screenMetadata } from '../../validation/metadata-check.js';
import { resolveIcons } from '../icons.js';
import type { NormalizeContext, Normalized } from '../registry/manual-kinds.js';
import { providerForUri } from './provider-names.js';

/** A resource as the registry keeps it (`.registry/resources.json` items). */
export interface ResourceDefinition {
  name: string;
  title?: string;
  description: string;
  /** The content file, relative to the resources directory (none for metadata-only resources). */
  path?: string;
  uri: string;
  mimeType?: string;
  /** Bytes of the raw content: metadata's `size`, else the content file's size at the scan. */
  size?: number;
  provider: string;
  icons?: Icon[];
  annotations?: Annotations;
  _meta?: JsonObject;
}

/** A resource template (`.registry/resource-templates.json` items). */
export interface ResourceTemplateDefinition {
  name: string;
  title?: string;
  description?: string;
  uriTemplate: string;
  mimeType?: string;
  /** Serves the URIs the template expands to (otherwise the scheme decides). */
  provider?: string;
  icons?: Icon[];
  annotations?: Annotations;
  _meta?: JsonObject;
}

interface ResourceContext extends NormalizeContext {
  /** The `file://` URI of the content file. */
  readonly defaultUri?: string;
  /** The content file's size, the resource's when its URI is the file's own. */
  readonly defaultSize?: number;
}

/** A `{variable}` somewhere in the template (decision: static URIs are resources). */
const TEMPLATE_VARIABLE = /\{[^{}]+\}/;

function nonEmpty(value: unknown): string | undefined {
  return typeof value === 'string' && value !== '' ? value : undefined;
}

/**
 * MCP annotations (already checked against the format): audience (only "user" and
 * "assistant"; other entries are dropped with a warning, D127), priority, lastModified.
 */
function annotationsFrom(value: unknown, warnings: string[], owner: string): Annotations | undefined {
  if (!isObject(value)) return undefined;
  const annotations: Annotations = {};
  if (Array.isArray(value.audience)) {
    const audience = value.audience.filter(
      (role): role is 'user' | 'assistant' => role === 'user' || role === 'assistant',
    );
    if (audience.length !== value.audience.length)
      warnings.push(`${owner}: annotations.audience may only hold "user" and "assistant"; other entries dropped`);
    annotations.audience = audience;
  }
  if (typeof value.priority === 'number') annotations.priority = value.priority;
  if (typeof value.lastModified === 'string') annotations.lastModified = value.lastModified;
  return Object.keys(annotations).length > 0 ? annotations : undefined;
}

/** The fields resources and templates share: title, description, icons, annotations, _meta. */
function commonFields(raw: JsonObject, context: ResourceContext, warnings: string[]) {
  const fields: Pick<ResourceDefinition, 'title' | 'icons' | 'annotations' | '_meta'> = {};
  const title = nonEmpty(raw.title);
  if (title) fields.title = title;
  const icons = resolveIcons(raw.icons, context.iconBase, warnings, context.owner);
  if (icons) fields.icons = icons;
  const annotations = annotationsFrom(raw.annotations, warnings, context.owner);
  if (annotations) fields.annotations = annotations;
  if (isObject(raw._meta)) fields._meta = raw._meta;
  return fields;
}

/** The path part of a URI, for guessing a MIME type from its extension. */
export function uriPathForMime(uri: string): string {
  return uri.replace(/[?#].*$/, '');
}

/**
 * Metadata (meta.json over an inline header, or a register.json entry) as a resource: a
 * name (default: the file stem), a URI (default: the content file's `file://` URI), the
 * provider (given, or from the scheme), a MIME type (given, or from the extension).
 */
export function normalizeResource(metadata: JsonObject, context: ResourceContext): Normalized<ResourceDefinition> {
  const { owner } = context;
  const screen = screenMetadata(resourceMeta, metadata);
  const warnings = screen.warnings.map((warning) => `${owner}: ${warning}`);
  if (!screen.value) return { error: `${owner}: ${screen.rejected}`, warnings };
  const raw = screen.value;
  if (raw.uri !== undefined && raw.uriTemplate !== undefined)
    return { error: `${owner}: has both uri and uriTemplate; skipped`, warnings };
  const name = nonEmpty(raw.name) ?? context.defaultName;
  if (!name) return { error: `${owner}: a resource needs a "name"`, warnings };
  const uri = nonEmpty(raw.uri) ?? context.defaultUri;
  if (!uri) return { error: `${owner}: a resource needs a "uri"`, warnings };
  const provider = nonEmpty(raw.provider);
  const item: ResourceDefinition = {
    name,
    description: typeof raw.description === 'string' ? raw.description : '',
    uri,
    provider: provider ?? providerForUri(uri),
  };
  if (context.path !== undefined) item.path = context.path;
  const mimeType = nonEmpty(raw.mimeType) ?? mimeFromPath(context.path ?? uriPathForMime(uri));
  if (mimeType) item.mimeType = mimeType;
  const size = typeof raw.size === 'number' ? raw.size : uri === context.defaultUri ? context.defaultSize : undefined;
  if (size !== undefined) item.size = size;
  return { item: { ...item, ...commonFields(raw, context, warnings) }, warnings };
}

/** Metadata as a resource template: a name and a `uriTemplate` with at least one `{variable}`. */
export function normalizeTemplate(
  metadata: JsonObject,
  context: ResourceContext,
): Normalized<ResourceTemplateDefinition> {
  const { owner } = context;
  const screen = screenMetadata(resourceMeta, metadata);
  const warnings = screen.warnings.map((warning) => `${owner}: ${warning}`);
  if (!screen.value) return { error: `${owner}: ${screen.rejected}`, warnings };
  const raw = screen.value;
  if (raw.uri !== undefined && raw.uriTemplate !== undefined)
    return { error: `${owner}: has both uri and uriTemplate; skipped`, warnings };
  const name = nonEmpty(raw.name);
  if (!name) return { error: `${owner}: a resource template needs a "name"`, warnings };
  const uriTemplate = nonEmpty(raw.uriTemplate);
  if (!uriTemplate || !TEMPLATE_VARIABLE.test(uriTemplate)) {
    return { error: `${owner}: uriTemplate must be a string with at least one {variable}`, warnings };
  }
  const provider = nonEmpty(raw.provider);
  const item: ResourceTemplateDefinition = { name, uriTemplate };
  const description = nonEmpty(raw.description);
  if (description) item.description = description;
  const mimeType = nonEmpty(raw.mimeType);
  if (mimeType) item.mimeType = mimeType;
  if (provider) item.provider = provider;
  return { item: { ...item, ...commonFields(raw, context, warnings) }, warnings };
}
