import type { FrameworkHome } from '../assets/framework-home.js';
import type { Env } from '../config/env-values.js';
import type { ServerConfig } from '../config/server-config.js';
import { ConcurrencyLimiter } from '../jsonrpc/concurrency-limiter.js';
import { chooseJsonTool } from '../process/json-tool.js';
import type { ProcessRegistry } from '../process/process-runner.js';
import type { ProjectContext } from '../project/project-context.js';
import { ProjectRegistries } from '../project/project-registries.js';
import type { RegistryKind } from '../project/registry/registry-store.js';
import { startJqService } from '../runner/jq-service-process.js';
import type { LogSink } from '../spec/logging-levels.js';
import { SchemaValidator } from '../validation/json-schema.js';

/**
 * What one server process builds once and each of its sessions uses: the project's
 * registries, the concurrency limit (MCPBASH_MAX_CONCURRENT_REQUESTS holds for the process,
 * however many clients), and what tool calls share (the JSON tool, the warm built-in jq,
 * compiled schemas). A stdio server has one session and builds its own; an HTTP server
 * builds them once for all its sessions (src/http/).
 */
export type ServerParts = ReturnType<typeof createServerParts>;

export interface ServerPartsOptions {
  readonly env: Env;
  readonly config: ServerConfig;
  readonly home: FrameworkHome;
  readonly project: ProjectContext;
  /** The server's scratch directory (registry hooks, the jq wrapper). */
  readonly stateDir: string;
  readonly processes: ProcessRegistry;
  /** Where registry diagnostics go. */
  readonly log: LogSink;
  /** Each registry check's hash (list_changed decisions). */
  readonly onHash: (kind: RegistryKind, hash: string) => void;
}

/**
 * A server writes `.registry/*.json` this long after a scan, not in the middle of answering:
 * a client's first requests (tools/list and its pages, then the other lists) come in a burst,
 * and each file write costs about a millisecond. A stop writes what is still waiting.
 */
const CACHE_WRITE_DELAY_MS = 1000;

/** Builds the parts of one server process. */
export function createServerParts(options: ServerPartsOptions) {
  const { env, project } = options;
  let jqService: Promise<string | undefined> | undefined;
  return {
    registries: new ProjectRegistries({
      layout: project.layout,
      home: options.home,
      config: options.config.registry,
      jsonTool: options.config.jsonTool,
      env,
      scratchDir: options.stateDir,
      log: options.log,
      processes: options.processes,
      serverName: project.identity.info.name,
      onHash: options.onHash,
      cacheWriteDelayMs: CACHE_WRITE_DELAY_MS,
    }),
    limiter: new ConcurrencyLimiter(options.config.maxConcurrentRequests),
    jsonTool: chooseJsonTool(options.config.jsonTool, env, options.stateDir),
    /** The warm built-in jq's address (started on first use), when tools use the built-in jq. */
    jqService: (): Promise<string | undefined> => {
      jqService ??= startJqService(env, (message) => options.log.warning('mcp.tools', message));
      return jqService;
    },
    validator: new SchemaValidator(),
    /** Where the processes the registries start (register.sh) are tracked, to be stopped at exit. */
    processes: options.processes,
  };
}
