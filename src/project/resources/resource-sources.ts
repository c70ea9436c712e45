import { join } from 'node:path';
import { sha256Hex } from '../../json/canonical-json.js';
import type { ProjectLayout } from '../project-layout.js';
import type { ManualKind } from '../registry/manual-kinds.js';
import { registrationFiles } from '../registry/manual-registration.js';
import type { ManualState, RegistrySource, RegistryStore } from '../registry/registry-store.js';
import type { ResourceDefinition, ResourceTemplateDefinition } from './resource-definition.js';
import { assembleTemplates, dedupeResources, scanResources } from './resource-discovery.js';

export interface ResourceSourceOptions {
  readonly layout: ProjectLayout;
  /** MCP_RESOURCES_TTL and MCP_RESOURCES_TEMPLATES_TTL. */
  readonly ttlMs: { readonly resources: number; readonly resourceTemplates: number };
  readonly manualState: <T>(kind: ManualKind) => Promise<ManualState<T>>;
}

function watched(layout: ProjectLayout): string[] {
  return [layout.resourcesDir, ...registrationFiles(layout)];
}

/** resources/ as a registry source (`.registry/resources.json`, MCP_RESOURCES_TTL). */
export function resourcesSource(options: ResourceSourceOptions): RegistrySource<ResourceDefinition> {
  const { layout } = options;
  return {
    kind: 'resources',
    cacheFile: join(layout.registryDir, 'resources.json'),
    ttlMs: options.ttlMs.resources,
    watchedPaths: watched(layout),
    scan: () => {
      const scan = scanResources(layout.resourcesDir);
      const warnings = [...scan.resourceWarnings];
      return { items: dedupeResources(scan.resources, warnings), warnings };
    },
    manual: () => options.manualState<ResourceDefinition>('resources'),
  };
}

/**
 * Templates as a registry source (`.registry/resource-templates.json`,
 * MCP_RESOURCES_TEMPLATES_TTL). Manual templates are merged over discovered ones (manual
 * wins by name) rather than replacing them; an explicit `[]` disables templates. Names of
 * resources are excluded, so the resources registry is part of the input.
 */
export function templatesSource(
  options: ResourceSourceOptions,
  resources: RegistryStore<ResourceDefinition>,
): RegistrySource<ResourceTemplateDefinition> {
  const { layout } = options;
  const own = () => options.manualState<ResourceTemplateDefinition>('resourceTemplates');
  return {
    kind: 'resourceTemplates',
    cacheFile: join(layout.registryDir, 'resource-templates.json'),
    ttlMs: options.ttlMs.resourceTemplates,
    watchedPaths: watched(layout),
    scan: async () => {
      const manual = await own();
      const resourceNames = new Set((await resources.snapshot()).items.map((item) => item.name));
      const scan = scanResources(layout.resourcesDir);
      const warnings = [...scan.templateWarnings, ...(manual.mode === 'manual' ? (manual.warnings ?? []) : [])];
      const manualItems = manual.mode === 'manual' ? manual.items : [];
      return { items: assembleTemplates(scan.templates, manualItems, resourceNames, warnings), warnings };
    },
    manual: async () => {
      const templates = await own();
      if (templates.mode === 'error' || (templates.mode === 'manual' && templates.items.length === 0)) return templates;
      const resourcesState = await options.manualState('resources');
      return { mode: 'auto', key: sha256Hex(`${templates.key}\0${resourcesState.key}`) };
    },
  };
}
