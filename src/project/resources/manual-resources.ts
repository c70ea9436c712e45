import { join } from 'node:path';
import { fileUriFromPath } from '../../content/mime.js';
import { type EntryNormalizer, normalizeEach } from '../registry/manual-kinds.js';
import {
  normalizeResource,
  normalizeTemplate,
  type ResourceDefinition,
  type ResourceTemplateDefinition,
} from './resource-definition.js';
import { dedupeResources } from './resource-discovery.js';

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
