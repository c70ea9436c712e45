import type { Readable, Writable } from 'node:stream';
import type { FrameworkHome } from '../assets/framework-home.js';
import type { Env } from '../config/env-values.js';
import type { ServerConfig } from '../config/server-config.js';
import { JsonRpcEngine } from '../jsonrpc/engine.js';
import type { JsonRpcParams } from '../jsonrpc/messages.js';
import { StdioTransport } from '../jsonrpc/stdio-transport.js';
import type { Transport } from '../jsonrpc/transport.js';
import { ProcessRegistry } from '../process/process-runner.js';
import type { ProjectContext } from '../project/project-context.js';
import { configuredRoots, implicitRoot } from '../project/roots.js';
import { removeStateDir } from '../project/state-dir.js';
import { ErrorCode } from '../spec/error-codes.js';
import { RpcError } from '../spec/rpc-error.js';
import type { ServerCapabilities } from '../spec/types.js';
import { lifecycleModule } from './handlers/lifecycle.js';
import { loggingModule } from './handlers/logging.js';
import { ListChangedNotifier, listOfKind } from './list-changed.js';
import { ServerLog, serverLogOptions } from './logging.js';
import { McpMethods } from './mcp-methods.js';
import { RemoteTokenGuard, remoteTokenSettings } from './remote-token.js';
import { RootsState } from './roots-state.js';
import type { HandlerModule, ModuleLifecycle, ServerContext } from './server-context.js';
import { createServerParts, type ServerParts } from './server-parts.js';
import { Session } from './session.js';
import { SessionWatchdogs } from './session-watchdogs.js';

export interface McpServerOptions {
  /** stdin and stdout, for the stdio transport (unused with `transport`). */
  readonly input?: Readable;
  readonly output?: Writable;
  readonly stderr: Writable;
  readonly env: Env;
  readonly config: ServerConfig;
  readonly home: FrameworkHome;
  readonly project: ProjectContext;
  /** The session's private scratch directory, removed when the session ends. */
  readonly stateDir: string;
  /** The MCP areas beyond lifecycle and logging (tools, resources, ...), in registration order. */
  readonly modules?: readonly HandlerModule[];
  /** A transport other than stdio (HTTP sessions, tests). */
  readonly transport?: Transport;
  /**
   * The server's shared parts, when this session is one of many in the process (HTTP):
   * registries, concurrency limit and tool resources are then the host's, which also stops
   * the processes the registries start. Without it, the session builds its own.
   */
  readonly shared?: ServerParts;
  /**
   * Whether the client's roots widen what the server itself reads (the file provider, tool
   * attachments). Default true: over stdio the client is the user on this machine. Over HTTP
   * its roots name its own machine's directories (MCPBASH_HTTP_TRUST_CLIENT_ROOTS, D289).
   */
  readonly trustClientRoots?: boolean;
}

/** A stop's flush of stdout gives up after this long with no byte taken, however small MCPBASH_SHUTDOWN_TIMEOUT. */
const FLUSH_STALL_FLOOR_MS = 1000;
/** How often that flush looks whether the client took anything. */
const FLUSH_CHECK_MS = 100;

/** How a stop treats running requests: let them finish for a while, or abort them now. */
export type StopMode = 'drain' | 'abort';

/** The modules every session has: lifecycle (initialize, ping, shutdown, cancellation) and logging. */
const CORE_MODULES: readonly HandlerModule[] = [lifecycleModule, loggingModule];

/**
 * One MCP session over stdio: wires the engine, the session gate and the handler modules,
 * and owns the end of the session (end of input, exit, signals, and the watchdogs: idle,
 * orphan, shutdown without exit), which always stops every process group and flushes
 * stdout before resolving.
 */
export class McpServer {
  readonly session = new Session();
  readonly log: ServerLog;
  readonly engine: JsonRpcEngine;
  readonly processes = new ProcessRegistry();
  readonly context: ServerContext;
  readonly parts: ServerParts;
  private readonly transport: Transport;
  private readonly modules: readonly HandlerModule[];
  private readonly hooks: Array<{ module: string; lifecycle: ModuleLifecycle }> = [];
  private readonly watchdogs: SessionWatchdogs;
  private readonly remoteToken: RemoteTokenGuard | undefined;
  private stopping: Promise<void> | undefined;
  private stopMode: StopMode = 'drain';
  private exitCode = 0;
  /** Cuts a drain short when an abort (a signal) arrives during it. */
  private endDrain: (() => void) | undefined;
  private finish: ((code: number) => void) | undefined;
  /** Ends the wait for stdout to flush (a second signal): what the client did not read is dropped. */
  private dropOutput!: () => void;
  private readonly outputDropped = new Promise<void>((resolve) => {
    this.dropOutput = resolve;
  });

  constructor(private readonly options: McpServerOptions) {
    const { config, env } = options;
    this.log = new ServerLog(serverLogOptions(config.log, options.stderr, options.project.layout.serverDir));
    this.transport = options.transport ?? McpServer.stdio(options, config.maxMessageBytes);
    let lists: ListChangedNotifier | undefined;
    this.parts =
      options.shared ??
      createServerParts({
        env,
        config,
        home: options.home,
        project: options.project,
        stateDir: options.stateDir,
        processes: this.processes,
        log: this.log,
        onHash: (kind, hash) => lists?.observe(listOfKind(kind), hash, kind),
      });
    const tokenSettings = remoteTokenSettings(config.remoteToken);
    this.remoteToken = tokenSettings
      ? new RemoteTokenGuard(tokenSettings, (level, message) => this.log.toStderr(level, 'mcp.auth', message))
      : undefined;
    this.engine = new JsonRpcEngine(this.transport, {
      maxConcurrent: config.maxConcurrentRequests,
      limiter: this.parts.limiter,
      maxResponseBytes: config.maxToolOutputBytes,
      admit: (method, _kind, params) => this.admit(method, params),
      ...(this.remoteToken ? { admitResponse: (response) => this.remoteToken?.admitResponse(response) === true } : {}),
      batchRefusal: () => this.batchRefusal(),
      log: (level, message) => this.log.toStderr(level, 'mcp.rpc', message),
    });
    this.log.attachClient((params) => {
      if (this.session.isReady) this.engine.notify('notifications/message', params);
    });
    this.watchdogs = new SessionWatchdogs(config, this.log, {
      abort: () => void this.stop(0, 'abort'),
      drain: () => void this.stop(0, 'drain'),
      activeRequests: () => this.engine.activeRequests,
    });
    lists = new ListChangedNotifier(this.session, (method) => this.engine.notify(method));
    const { layout } = options.project;
    const roots = new RootsState(
      configuredRoots(layout, config.paths.roots, (message) => this.log.warning('mcp.roots', message)),
      implicitRoot(layout),
      { trustClientRoots: options.trustClientRoots ?? true },
    );
    this.modules = [...CORE_MODULES, ...(options.modules ?? [])];
    this.context = {
      methods: new McpMethods(this.engine),
      engine: this.engine,
      session: this.session,
      log: this.log,
      config,
      env,
      home: options.home,
      project: options.project,
      processes: this.processes,
      lists,
      stateDir: options.stateDir,
      registries: this.parts.registries,
      parts: this.parts,
      roots,
      elicitation: undefined,
      sampling: undefined,
      stderr: options.stderr,
      capabilities: () => this.capabilities(),
      // State at once, output a turn later: a client that sends `initialized` without waiting
      // for initialize's answer (a pipe fed by printf) still reads that answer first.
      announceReady: () => {
        this.runHooks('onInitialized');
        setImmediate(() => {
          if (!this.stopping) this.runHooks('onReady');
        });
      },
      requestExit: (code) => {
        setImmediate(() => void this.stop(code, 'drain'));
      },
      armShutdownWatchdog: () => this.watchdogs.armShutdownWatchdog(),
    };
  }

  /** Serves until the session ends; resolves with the process exit status. */
  run(): Promise<number> {
    for (const warning of this.options.project.identity.warnings) this.log.warning('mcp.lifecycle', warning);
    for (const module of this.modules) {
      const lifecycle = module.register(this.context);
      if (lifecycle) this.hooks.push({ module: module.name, lifecycle });
    }
    const onFrame = this.transport.onframe;
    this.transport.onframe = (frame, reply) => {
      this.watchdogs.touchIdle();
      onFrame?.(frame, reply);
      this.runHooks('onInput');
    };
    this.transport.onclose = () => void this.stop(0, 'drain');
    const done = new Promise<number>((resolve) => {
      this.finish = resolve;
    });
    this.engine.start();
    this.watchdogs.touchIdle();
    this.watchdogs.watchParent();
    return done;
  }

  /**
   * Ends the session: refuses new work, lets running requests finish (drain, bounded by
   * MCPBASH_SHUTDOWN_TIMEOUT) or aborts them (abort), stops every process group, flushes
   * stdout, then resolves `run()` with `code`. A later stop is a no-op, except that an abort
   * overtakes a drain in progress (a signal after end of input): the drain ends at once and
   * the abort's code is the exit status.
   */
  stop(code: number, mode: StopMode): Promise<void> {
    if (!this.stopping) {
      this.exitCode = code;
      this.stopMode = mode;
      this.stopping = this.performStop();
    } else if (mode === 'abort' && this.stopMode === 'drain') {
      this.exitCode = code;
      this.stopMode = mode;
      this.endDrain?.();
    } else if (mode === 'abort') {
      this.dropOutput();
    }
    return this.stopping;
  }

  private async performStop(): Promise<void> {
    const { config } = this.options;
    this.session.phase = 'shutting-down';
    this.watchdogs.clear();
    const modulesStopped = this.runHooks('onStop');
    if (this.stopMode === 'drain') {
      const aborted = new Promise<void>((resolve) => {
        this.endDrain = resolve;
      });
      await Promise.race([this.engine.whenIdle(config.shutdownTimeoutMs), aborted]);
    }
    // Each step runs even when one before it fails, and the session always ends: every
    // caller starts a stop without awaiting it, so a throw here would crash the process.
    const steps: Array<[string, () => unknown]> = [
      ['abort requests', () => this.engine.shutdown(config.killGraceMs + 500)],
      ['stop tool processes', () => this.processes.stopAll(config.killGraceMs)],
      // Registries a host shares (HTTP) are the host's to flush, at its own stop.
      [
        'write the registry caches',
        () => {
          if (!this.options.shared) this.parts.registries.flushCaches();
        },
      ],
      ['flush stdout', () => this.flushOutput(config.shutdownTimeoutMs)],
      ['let the modules finish stopping', () => modulesStopped],
      [
        'remove the state dir',
        () => {
          if (!config.preserveState) removeStateDir(this.options.stateDir);
        },
      ],
    ];
    for (const [what, step] of steps) {
      try {
        await step();
      } catch (error) {
        this.log.toStderr('error', 'mcp.core', `shutdown: could not ${what}: ${(error as Error).message}`);
      }
    }
    this.finish?.(this.exitCode);
  }

  /**
   * Waits for stdout to take what is queued, until the client has taken nothing for
   * `limitMs` (at least FLUSH_STALL_FLOOR_MS) or a second signal: a client that stopped
   * reading must not keep the server (and its exit status) alive, but one that reads slowly
   * gets every answer whole, whatever MCPBASH_SHUTDOWN_TIMEOUT says.
   */
  private async flushOutput(limitMs: number): Promise<void> {
    let timer: NodeJS.Timeout | undefined;
    const flushed = this.transport.close().then(() => true);
    const givenUp = new Promise<boolean>((resolve) => {
      const stallMs = Math.max(limitMs, FLUSH_STALL_FLOOR_MS);
      const unsent = () => this.transport.unsentBytes?.();
      let left = unsent();
      let progressAt = Date.now();
      timer = setInterval(() => {
        const now = unsent();
        if (now !== undefined && left !== undefined && now < left) progressAt = Date.now();
        left = now;
        if (Date.now() - progressAt >= stallMs) resolve(false);
      }, FLUSH_CHECK_MS);
      void this.outputDropped.then(() => resolve(false));
    });
    const complete = await Promise.race([flushed, givenUp]).finally(() => clearInterval(timer));
    if (!complete)
      this.log.toStderr('warning', 'mcp.core', 'shutdown: the client is not reading; unsent output dropped');
  }

  private static stdio(options: McpServerOptions, maxMessageBytes: number): Transport {
    if (!options.input || !options.output) throw new Error('McpServer needs a transport, or stdin and stdout');
    return new StdioTransport(options.input, options.output, maxMessageBytes);
  }

  /** The admission path: remote token first (nothing runs for a stranger), then lifecycle, then minimal mode. */
  private admit(method: string, params: JsonRpcParams | undefined): RpcError | undefined {
    const denied = this.remoteToken?.admit(method, params);
    if (denied) return denied;
    const refusal = this.session.admit(method);
    if (refusal || !this.options.config.forceMinimal) return refusal;
    const area = this.modules.find(
      (module) => module.minimalMode && method.startsWith(module.minimalMode.methodPrefix),
    );
    return area?.minimalMode
      ? new RpcError(ErrorCode.MethodNotFound, `${area.minimalMode.label} capability unavailable in minimal mode`)
      : undefined;
  }

  /**
   * The server capabilities of initialize's answer (original-behaviour §2.3): each module's
   * part for the negotiated version and the client, in module order; minimal mode keeps
   * only the modules it serves (logging).
   */
  private capabilities(): ServerCapabilities {
    const minimal = this.options.config.forceMinimal;
    const capabilities: ServerCapabilities = {};
    for (const module of this.modules) {
      if (minimal && module.minimalMode) continue;
      Object.assign(capabilities, module.capabilities?.(this.session));
    }
    return capabilities;
  }

  /** Runs one lifecycle hook of every module; a failing hook is logged and costs only itself. */
  /** Runs one hook of every module; settles when what the hooks returned has settled. */
  private runHooks(hook: keyof ModuleLifecycle): Promise<void> {
    const failed = (module: string) => (error: unknown) =>
      this.log.error('mcp.core', `${module}: ${hook} failed: ${(error as Error).stack ?? String(error)}`);
    const pending: Array<Promise<void>> = [];
    for (const { module, lifecycle } of this.hooks) {
      try {
        const result = lifecycle[hook]?.();
        if (result) pending.push(result.catch(failed(module)));
      } catch (error) {
        failed(module)(error);
      }
    }
    return Promise.all(pending).then(() => {});
  }

  /** Why a batch is refused at the session's protocol version (only 2025-03-26 has them); undefined when accepted. */
  batchRefusal(): string | undefined {
    if (this.options.config.compatBatches || this.session.features.batches) return undefined;
    return this.session.phase === 'new'
      ? 'Batch arrays are disabled'
      : `Batch arrays are not allowed for protocol ${this.session.protocolVersion}`;
  }
}
