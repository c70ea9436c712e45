import { realpathSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { FrameworkHome } from '../../assets/framework-home.js';
import { loadConfig } from '../../config/config.js';
import type { Env } from '../../config/env-values.js';
import { jsonToolConfig, registryConfig } from '../../config/slices.js';
import { projectLayout } from '../../project/project-layout.js';
import { ProjectRegistries } from '../../project/project-registries.js';
import type { PromptDefinition } from '../../project/prompts/prompt-definition.js';
import { serializeRegistry } from '../../project/registry/registry-cache.js';
import type { RegistryKind } from '../../project/registry/registry-store.js';
import type { ResourceDefinition } from '../../project/resources/resource-definition.js';
import type { ToolDefinition } from '../../project/tools/tool-definition.js';
import { UI_CACHE_FILE } from '../../project/ui/ui-source.js';
import type { LogSink } from '../../spec/logging-levels.js';
import type { ArchiveEntry } from './zip-writer.js';

/** What the server will offer from the bundle, found by the server's own registries. */
export interface ProjectInventory {
  readonly tools: ToolDefinition[];
  readonly resources: ResourceDefinition[];
  readonly resourceTemplates: unknown[];
  readonly prompts: PromptDefinition[];
  /** MCP Apps views (tool `ui/` and standalone `ui/<name>/` directories). */
  readonly uiResources: unknown[];
  /** `server/.registry/*.json` for static mode (empty when it is off). */
  readonly registryEntries: ArchiveEntry[];
  readonly warnings: string[];
  /** What static mode leaves to discovery at start-up, and why. */
  readonly notes: string[];
}

export interface InventoryOptions {
  readonly root: string;
  readonly home: FrameworkHome;
  readonly env: Env;
  readonly scratchDir: string;
  /** Write the static registry (MCPB_STATIC). */
  readonly staticRegistry: boolean;
  /** The registries' `generatedAt` (the archive time: reproducible). */
  readonly generatedAt: Date;
}

const CACHE_FILE: Readonly<Record<RegistryKind, string>> = {
  tools: 'tools.json',
  resources: 'resources.json',
  resourceTemplates: 'resource-templates.json',
  prompts: 'prompts.json',
  ui: UI_CACHE_FILE,
};

/** Variables that would make the scan look elsewhere than the bundle's standard layout. */
const LAYOUT_VARIABLES = /^MCPBASH_(\w+_DIR|STATIC_REGISTRY|REGISTRY_REFRESH_PATH)$/;

function scanEnv(env: Env): Env {
  return Object.fromEntries(Object.entries(env).filter(([key]) => !LAYOUT_VARIABLES.test(key)));
}

function collectingLog(warnings: string[]): LogSink {
  return { warning: (_logger, message) => warnings.push(message), info: () => {}, debug: () => {} };
}

/** A discovered file's `file://` URI names where the project is now, not where the bundle will be unpacked. */
function pinnedToThisMachine(resource: ResourceDefinition, roots: readonly string[]): boolean {
  if (!resource.uri.startsWith('file:')) return false;
  try {
    const path = fileURLToPath(resource.uri);
    return roots.some((root) => path.startsWith(root));
  } catch {
    return false;
  }
}

/**
 * Scans the project with the registries the server uses (in this process, one forced
 * refresh per kind) and, for static mode, turns each into `server/.registry/<kind>.json`:
 * no fingerprint (it names this machine's paths) and a fixed `generatedAt`. A resources
 * registry whose file:// URIs point into this copy of the project is left to discovery.
 */
export async function scanProject(options: InventoryOptions): Promise<ProjectInventory> {
  const warnings: string[] = [];
  const notes: string[] = [];
  const env = scanEnv(options.env);
  const { values } = loadConfig(env);
  const registries = new ProjectRegistries({
    layout: projectLayout(options.root, {}),
    home: options.home,
    config: registryConfig(values),
    jsonTool: jsonToolConfig(values),
    env,
    scratchDir: options.scratchDir,
    log: collectingLog(warnings),
    writeCache: false,
  });
  const items: Partial<Record<RegistryKind, unknown[]>> = {};
  const registryEntries: ArchiveEntry[] = [];
  const roots = [options.root, realpathSync(options.root)];
  for (const store of registries.all()) {
    try {
      const snapshot = await store.snapshot(true);
      items[store.kind] = [...snapshot.items];
      if (!options.staticRegistry) continue;
      const resources = store.kind === 'resources' ? (snapshot.items as ResourceDefinition[]) : [];
      if (resources.some((resource) => pinnedToThisMachine(resource, roots))) {
        notes.push('resources are discovered at start-up: their file:// URIs depend on where the bundle is unpacked');
        continue;
      }
      const text = serializeRegistry([...snapshot.items], snapshot.hash, options.generatedAt);
      registryEntries.push({
        path: `server/.registry/${CACHE_FILE[store.kind]}`,
        mode: 0o644,
        data: Buffer.from(text),
      });
    } catch (error) {
      warnings.push(`the ${store.kind} registry failed (${(error as Error).message}); the bundle lists none`);
    }
  }
  return {
    tools: (items.tools ?? []) as ToolDefinition[],
    resources: (items.resources ?? []) as ResourceDefinition[],
    resourceTemplates: items.resourceTemplates ?? [],
    prompts: (items.prompts ?? []) as PromptDefinition[],
    uiResources: items.ui ?? [],
    registryEntries,
    warnings,
    notes,
  };
}
