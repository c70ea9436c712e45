import { join } from 'node:path';
import { fileUriFromPath } from '../../content/mime.js';
import { isObject } from '../../json/objects.js';
import type { EntryNormalizer } from '../registry/manual-kinds.js';
import {
  type Normalized,
  normalizeResource,
  normalizeTemplate,
  type ResourceDefinition,
  type ResourceTemplateDefinition,
} from './resource-definition.js';
import { dedupeResources } from './resource-discovery.js';

function normalizeEach<T>(
  kind: string,
  entries: unknown[],
  normalize: (raw: Record<string, unknown>, owner: string) => Normalized<T>,
): { items: T[]; errors: string[]; warnings: string[] } {
  const errors: string[] = [];
  const warnings: string[] = [];
  const items: T[] = [];
  entries.forEach((entry, index) => {
    const owner = `${kind}[${index}]`;
    if (!isObject(entry)) {
      errors.push(`${owner} must be an object`);
      return;
    }
    const normalized = normalize(entry, owner);
    warnings.push(...normalized.warnings);
    if (normalized.error) errors.push(normalized.error);
    else if (normalized.item) items.push(normalized.item);
  });
  return { items, errors, warnings };
}

/**
 * Resources from register.json / register.sh: a `name` and a `uri` (or a `path` inside the
 * resources directory, whose `file://` URI is used), normalised like discovered ones
 * (provider from the scheme, MIME type from the extension), de-duplicated by name.
 */
export function manualResourceNormalizer(resourcesDir: string): EntryNormalizer {
  return (entries) => {
    const result = normalizeEach<ResourceDefinition>('resources', entries, (raw, owner) => {
      const path = typeof raw.path === 'string' && raw.path !== '' ? raw.path : undefined;
      return normalizeResource(raw, {
        iconBase: resourcesDir,
        owner,
        ...(path ? { path, defaultUri: fileUriFromPath(join(resourcesDir, path)) } : {}),
      });
    });
    return { ...result, items: dedupeResources(result.items, result.warnings) };
  };
}

/** Resource templates from register.json / register.sh (they override discovered ones by name). */
export function manualTemplateNormalizer(resourcesDir: string): EntryNormalizer {
  return (entries) =>
    normalizeEach<ResourceTemplateDefinition>('resourceTemplates', entries, (raw, owner) =>
      normalizeTemplate(raw, { iconBase: resourcesDir, owner }),
    );
}
