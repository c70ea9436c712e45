import { join } from 'node:path';
import type { FrameworkHome } from '../assets/framework-home.js';
import { VERSION } from '../build-info.js';
import type { Env } from '../config/env-values.js';
import type { JsonToolConfig, RegistryConfig } from '../config/slices.js';
import { chooseJsonTool } from '../process/json-tool.js';
import type { ProcessRegistry } from '../process/process-runner.js';
import type { LogSink } from '../spec/logging-levels.js';
import { type CompletionRegistration, manualCompletionNormalizer } from './completions/completion-registration.js';
import type { TreeWalk } from './discovery-files.js';
import { hookEnvironment } from './hook-environment.js';
import { ProjectError } from './project-error.js';
import type { ProjectLayout } from './project-layout.js';
import { manualPromptNormalizer } from './prompts/manual-prompts.js';
import type { PromptDefinition } from './prompts/prompt-definition.js';
import { discoverPrompts } from './prompts/prompt-discovery.js';
import { sameTurnWalker } from './registry/fingerprint.js';
import type { ManualKind } from './registry/manual-kinds.js';
import { ManualRegistrations, registrationFiles } from './registry/manual-registration.js';
import { type ManualState, type RegistryKind, RegistryStore, type ScanResult } from './registry/registry-store.js';
import { manualResourceNormalizer, manualTemplateNormalizer } from './resources/manual-resources.js';
import type { ResourceDefinition, ResourceTemplateDefinition } from './resources/resource-definition.js';
import { resourcesSource, templatesSource } from './resources/resource-sources.js';
import { loadServerIdentity } from './server-identity.js';
import { manualToolNormalizer } from './tools/manual-tools.js';
import type { ToolDefinition } from './tools/tool-definition.js';
import { discoverTools } from './tools/tool-discovery.js';
import { mergeSubtreeScan, resolveToolsSubtree } from './tools/tools-subtree.js';
import { withInferredUi } from './ui/tool-ui-meta.js';
import { toolsWithUiDir } from './ui/ui-discovery.js';
import type { UiResourceDefinition } from './ui/ui-resource.js';
import { uiResourcesSource } from './ui/ui-source.js';

export interface RegistryOptions {
  readonly layout: ProjectLayout;
  readonly home: FrameworkHome;
  /** Caching, trust and bounds (MCP_*_TTL, MCPBASH_STATIC_REGISTRY, ...). */
  readonly config: RegistryConfig;
  /** Which JSON tool register.sh gets. */
  readonly jsonTool: JsonToolConfig;
  /** The environment register.sh starts from. */
  readonly env: Env;
  readonly scratchDir: string;
  readonly log: LogSink;
  readonly onHash?: (kind: RegistryKind, hash: string) => void;
  /** False for commands that must not touch `.registry/`. */
  readonly writeCache?: boolean;
  /** Write `.registry/` files this long after a scan (the server), not at once; flushCaches() at stop. */
  readonly cacheWriteDelayMs?: number;
  /** Processes the registries start (register.sh) are registered here, to be stopped with the rest. */
  readonly processes?: ProcessRegistry;
  /**
   * Tools scans cover only this tools-relative sub-path (`registry refresh --filter`);
   * default MCPBASH_REGISTRY_REFRESH_PATH.
   */
  readonly toolsSubtree?: string;
  /** The name `ui://` URIs carry; default: server.meta.json's (read at each scan). */
  readonly serverName?: string;
}

const POLL_INTERVAL_MS = 1000;

/**
 * The revision of the discovery rules, part of every cache's fingerprint with the version:
 * bump it when the same files would give other registry items (2: D282), so that a cache
 * an earlier build wrote for unchanged files is not served as if this one had scanned them.
 */
const DISCOVERY_RULES = 2;

/**
 * The registries of one project (tools, resources, resource templates, prompts, and the
 * manual completions), sharing one view of register.json / register.sh.
 */
export class ProjectRegistries {
  private readonly manual: ManualRegistrations;
  readonly tools: RegistryStore<ToolDefinition>;
  readonly resources: RegistryStore<ResourceDefinition>;
  readonly resourceTemplates: RegistryStore<ResourceTemplateDefinition>;
  readonly prompts: RegistryStore<PromptDefinition>;
  /** MCP Apps UI resources: tool `ui/` directories and standalone `ui/<name>/`. */
  readonly ui: RegistryStore<UiResourceDefinition>;
  /** Where tools scans look ('' for the whole tools directory). */
  readonly toolsSubtree: string;
  private readonly stores: Array<RegistryStore<unknown>> = [];
  private readonly completionWarnings = new Set<string>();
  /** Tools and UI resources both watch tools/: checks in one turn share its walk. */
  private readonly sharedWalk = sameTurnWalker();

  constructor(private readonly options: RegistryOptions) {
    const { layout, env, config } = options;
    this.manual = new ManualRegistrations({
      layout,
      config,
      hookDriver: join(options.home.hooksDir, 'register-hook.sh'),
      hookEnv: hookEnvironment(env, layout, options.home, chooseJsonTool(options.jsonTool, env, options.scratchDir)),
      scratchDir: options.scratchDir,
      processes: options.processes,
      normalizers: {
        tools: manualToolNormalizer(layout.toolsDir),
        resources: manualResourceNormalizer(layout.resourcesDir),
        resourceTemplates: manualTemplateNormalizer(layout.resourcesDir),
        prompts: manualPromptNormalizer(layout.promptsDir),
        completions: manualCompletionNormalizer(layout.root),
      },
      log: options.log,
    });
    this.toolsSubtree = options.toolsSubtree ?? this.subtreeFromConfig();
    this.tools = this.store({
      kind: 'tools',
      cacheFile: join(layout.registryDir, 'tools.json'),
      ttlMs: config.ttlMs.tools,
      // server.meta.json: the `ui://` URIs of tools with a UI carry the server's name.
      watchedPaths: [layout.toolsDir, ...registrationFiles(layout), join(layout.serverDir, 'server.meta.json')],
      ...(this.toolsSubtree === '' ? {} : { scope: `tools subtree ${this.toolsSubtree}` }),
      scan: (previous, tree) => this.scanTools(previous, tree.walkOf(layout.toolsDir)),
      manual: () => this.manualState<ToolDefinition>('tools'),
    });
    const sourceOptions = {
      layout,
      ttlMs: config.ttlMs,
      manualState: <T>(kind: ManualKind) => this.manualState<T>(kind),
    };
    this.resources = this.store(resourcesSource(sourceOptions));
    this.resourceTemplates = this.store(templatesSource(sourceOptions, this.resources));
    this.prompts = this.store({
      kind: 'prompts',
      cacheFile: join(layout.registryDir, 'prompts.json'),
      ttlMs: config.ttlMs.prompts,
      watchedPaths: [layout.promptsDir, ...registrationFiles(layout)],
      scan: (_previous, tree) => discoverPrompts(layout.promptsDir, layout.root, tree.walkOf(layout.promptsDir)),
      manual: () => this.manualState<PromptDefinition>('prompts'),
    });
    this.ui = this.store(uiResourcesSource(layout, config.ttlMs.ui, () => this.serverName()));
  }

  /** The server name UI URIs carry. */
  serverName(): string {
    return this.options.serverName ?? loadServerIdentity(this.options.layout).info.name;
  }

  /** A tools scan: everything, or only the subtree merged into the previous registry. */
  private scanTools(previous: () => readonly ToolDefinition[], tree: TreeWalk | undefined): ScanResult<ToolDefinition> {
    const discovered = discoverTools(this.options.layout.toolsDir, this.toolsSubtree, tree);
    const uiOptions = { ...this.options.layout, serverName: this.serverName() };
    const toolsWithUi = tree ? new Set(toolsWithUiDir(this.options.layout.toolsDir, tree)) : undefined;
    const items = discovered.items.map((tool) => withInferredUi(tool, uiOptions, toolsWithUi));
    if (this.toolsSubtree === '') return { items, warnings: discovered.warnings };
    const warnings = [...discovered.warnings];
    return { items: mergeSubtreeScan(previous(), items, this.toolsSubtree, warnings), warnings };
  }

  /** MCPBASH_REGISTRY_REFRESH_PATH; one outside the tools directory is ignored with a warning (1.x ignored it). */
  private subtreeFromConfig(): string {
    const value = this.options.config.refreshPath;
    if (value === undefined) return '';
    const subtree = resolveToolsSubtree(this.options.layout, value);
    if (typeof subtree === 'string') return subtree;
    this.options.log.warning('mcp.registry', `MCPBASH_REGISTRY_REFRESH_PATH ignored: ${subtree.error}`);
    return '';
  }

  /** Completion scripts registered by hand (none unless register.json / register.sh list some). */
  async completions(): Promise<CompletionRegistration[]> {
    const state = await this.manualState<CompletionRegistration>('completions');
    if (state.mode === 'error') throw ProjectError.failed(state.message);
    if (state.mode !== 'manual') return [];
    // Completions have no registry store to report skipped entries; warn here, once each.
    for (const warning of state.warnings ?? []) {
      if (this.completionWarnings.has(warning)) continue;
      this.completionWarnings.add(warning);
      this.options.log.warning('mcp.registry', warning);
    }
    return state.items;
  }

  /** Writes every delayed `.registry/` file now. */
  flushCaches(): void {
    for (const store of this.stores) store.flushCache();
  }

  /** Every registry of the project (for polling and refresh). */
  all(): ReadonlyArray<RegistryStore<unknown>> {
    return this.stores;
  }

  /**
   * How often to look for changes: once a second, as 1.x did. Each kind rescans only when its
   * own TTL has expired, so a change is seen within its TTL plus a second (polling every TTL
   * instead could skip a check that came a moment early, and take two TTLs).
   */
  pollIntervalMs(): number {
    return POLL_INTERVAL_MS;
  }

  /** A store with this project's shared settings. */
  store<T>(source: ConstructorParameters<typeof RegistryStore<T>>[0]): RegistryStore<T> {
    const { config } = this.options;
    const store = new RegistryStore<T>(source, {
      log: this.options.log,
      maxBytes: config.maxBytes,
      staticMode: config.staticMode,
      writeCache: this.options.writeCache ?? true,
      rules: `${VERSION} discovery ${DISCOVERY_RULES}`,
      ...(this.options.cacheWriteDelayMs === undefined ? {} : { cacheWriteDelayMs: this.options.cacheWriteDelayMs }),
      walk: this.sharedWalk,
      ...(this.options.onHash ? { onHash: this.options.onHash } : {}),
    });
    this.stores.push(store as RegistryStore<unknown>);
    return store;
  }

  manualState<T>(kind: ManualKind): Promise<ManualState<T>> {
    return this.manual.state(kind) as Promise<ManualState<T>>;
  }
}
