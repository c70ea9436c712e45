import type { Writable } from 'node:stream';
import type { FrameworkHome } from '../assets/framework-home.js';
import type { Env } from '../config/env-values.js';
import type { ServerConfig } from '../config/server-config.js';
import type { JsonRpcEngine, RequestContext } from '../jsonrpc/engine.js';
import type { ProcessRegistry } from '../process/process-runner.js';
import type { ProjectContext } from '../project/project-context.js';
import type { ProjectRegistries } from '../project/project-registries.js';
import type { ClientRequestBridge } from '../runner/tool-runtime.js';
import type { ServerCapabilities } from '../spec/types.js';
import type { ListChangedNotifier } from './list-changed.js';
import type { ServerLog } from './logging.js';
import type { McpMethods } from './mcp-methods.js';
import type { RootsState } from './roots-state.js';
import type { ServerParts } from './server-parts.js';
import type { Session } from './session.js';

/** The engine as areas use it: talking to the peer. Methods are registered through `methods`. */
type PeerChannel = Pick<JsonRpcEngine, 'notify' | 'request' | 'acquireSlot' | 'cancel'>;

/** The session a handler serves: its method table, the peer, the session's state, log and settings. */
export interface SessionRole {
  readonly methods: McpMethods;
  readonly engine: PeerChannel;
  readonly session: Session;
  readonly log: ServerLog;
  readonly config: ServerConfig;
}

/** The project, and what runs its scripts (tools, resource providers, completion scripts). */
export interface ProjectRole {
  readonly project: ProjectContext;
  readonly registries: ProjectRegistries;
  readonly env: Env;
  readonly home: FrameworkHome;
  /** The server's private scratch directory. */
  readonly stateDir: string;
  readonly processes: ProcessRegistry;
  /** What the sessions of this server share (registries, limits, tool resources). */
  readonly parts: ServerParts;
  /** The server's stderr (diagnostics; tool stderr when streamed). */
  readonly stderr: Writable;
}

/** The session's turns, which only the lifecycle area drives. */
export interface SessionControl {
  /** The capabilities of every module, for the session's version and client (initialize's answer). */
  capabilities(): ServerCapabilities;
  /** The client sent `notifications/initialized`: `onInitialized` hooks run now, `onReady` a turn later. */
  announceReady(): void;
  /** Ends the session once the current response has been written. */
  requestExit(code: number): void;
  /** After `shutdown`: end the session anyway if `exit` does not follow in time. */
  armShutdownWatchdog(): void;
}

/**
 * What handler modules share: the roles above, each helper taking the ones it needs, and
 * the state areas hand each other (list_changed, roots, the elicitation and sampling bridges).
 */
export interface ServerContext extends SessionRole, ProjectRole, SessionControl {
  readonly lists: ListChangedNotifier;
  readonly roots: RootsState;
  /** Set by the elicitation module. */
  elicitation: SessionClientRequests | undefined;
  /** Set by the sampling module. */
  sampling: SessionClientRequests | undefined;
}

/**
 * The session's bridge for one kind of tools' requests to the client (elicitation,
 * sampling). `on` gives the same bridge for one request: what it sends the client
 * (`elicitation/create`, `sampling/createMessage`) travels where that request's answer will
 * (over HTTP, the stream of the POST that carried the tools/call).
 */
export interface SessionClientRequests extends ClientRequestBridge {
  on(requester: Pick<RequestContext, 'request' | 'notify'>): ClientRequestBridge;
}

/** A session's bridge from the one built for a requester: the session's own (the engine), and `on`. */
export function sessionBridge(
  engine: Pick<RequestContext, 'request' | 'notify'>,
  via: (requester: Pick<RequestContext, 'request' | 'notify'>) => ClientRequestBridge,
): SessionClientRequests {
  return Object.assign(via(engine), { on: via });
}

/** What a module needs at the turns of the session; each runs once, errors are logged. */
export interface ModuleLifecycle {
  /**
   * At once on `notifications/initialized`, before the next message is read: state only
   * (requests that follow must see it), nothing sent.
   */
  onInitialized?(): void;
  /** A turn after `notifications/initialized`: what a module sends or starts once ready. */
  onReady?(): void;
  /** After every input message (cheap change polling). */
  onInput?(): void;
  /**
   * When the session ends: clear timers and watchers. What it returns is awaited before the
   * state dir is removed.
   */
  onStop?(): void | Promise<void>;
}

/**
 * One MCP area (tools, resources, ...): what it adds to initialize's capabilities, whether
 * minimal mode (MCPBASH_FORCE_MINIMAL) serves it, its methods, and its lifecycle needs.
 * Adding an area is a module and one line in server-modules.ts.
 */
export interface HandlerModule {
  /** Names the area in logs. */
  readonly name: string;
  /**
   * Minimal mode refuses methods starting with `methodPrefix`: -32601 "<label> capability
   * unavailable in minimal mode" (1.x's wording), and drops the area's capabilities.
   */
  readonly minimalMode?: { readonly methodPrefix: string; readonly label: string };
  /** The area's part of the server capabilities for this session (version, client). */
  capabilities?(session: Session): ServerCapabilities;
  /** Registers the area's methods on `context.methods`. */
  register(context: ServerContext): ModuleLifecycle | undefined;
}
