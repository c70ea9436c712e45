import type { Writable } from 'node:stream';
import type { FrameworkHome } from '../assets/framework-home.js';
import type { Env } from '../config/env-values.js';
import type { ServerConfig } from '../config/server-config.js';
import type { JsonRpcEngine, RequestContext } from '../jsonrpc/engine.js';
import type { ProjectContext } from '../project/project-context.js';
import type { ProjectRegistries } from '../project/project-registries.js';
import type { ProcessRegistry } from '../runner/process-runner.js';
import type { ElicitationBridge } from '../runner/tool-runtime.js';
import type { ListChangedNotifier } from './list-changed.js';
import type { ServerLog } from './logging.js';
import type { RootsState } from './roots-state.js';
import type { ServerParts } from './server-parts.js';
import type { Session } from './session.js';

/** What handler modules share: the engine to register on, the session, and the services. */
export interface ServerContext {
  readonly engine: JsonRpcEngine;
  readonly session: Session;
  readonly log: ServerLog;
  readonly config: ServerConfig;
  readonly env: Env;
  readonly home: FrameworkHome;
  readonly project: ProjectContext;
  readonly processes: ProcessRegistry;
  readonly lists: ListChangedNotifier;
  /** The server's private scratch directory. */
  readonly stateDir: string;
  readonly registries: ProjectRegistries;
  /** What the sessions of this server share (registries, limits, tool resources). */
  readonly parts: ServerParts;
  readonly roots: RootsState;
  /** Set by the elicitation module. */
  elicitation: SessionElicitation | undefined;
  /** The server's stderr (diagnostics; tool stderr when streamed). */
  readonly stderr: Writable;
  /** Runs `listener` once the client has sent `notifications/initialized`. */
  onReady(listener: () => void): void;
  /** Runs `listener` after every input message (cheap change polling). */
  onInput(listener: () => void): void;
  /** Runs `listener` when the session ends (to clear timers and watchers). */
  onStop(listener: () => void): void;
  /** Ends the session once the current response has been written. */
  requestExit(code: number): void;
  /** After `shutdown`: end the session anyway if `exit` does not follow in time. */
  armShutdownWatchdog(): void;
}

/**
 * The session's bridge for tools' elicitation requests. `on` gives the same bridge for one
 * request: its `elicitation/create` travels where that request's answer will (over HTTP,
 * the stream of the POST that carried the tools/call).
 */
export interface SessionElicitation extends ElicitationBridge {
  on(requester: Pick<RequestContext, 'request'>): ElicitationBridge;
}

/** A handler module registers the methods of one MCP area. */
export type HandlerModule = (context: ServerContext) => void;
