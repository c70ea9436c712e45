import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import type { Transport } from '../jsonrpc/transport.js';
import { McpServer, type McpServerOptions } from '../mcp/mcp-server.js';
import type { ProtocolVersion } from '../mcp/protocol-versions.js';
import type { ServerParts } from '../mcp/server-parts.js';
import type { SessionBroadcast } from '../mcp/session-broadcast.js';
import { makeStateDir } from '../project/state-dir.js';

/** What every session's MCP server has in common: the project, the modules, the settings. */
export type SessionTemplate = Omit<McpServerOptions, 'transport' | 'stateDir' | 'input' | 'output' | 'shared'>;

/** How a stateless POST's server starts: as if initialized, at the version its header names. */
export interface StatelessStart {
  readonly protocolVersion: ProtocolVersion;
  /** The POST carries `initialize`: the server starts new, to answer it. */
  readonly initializing: boolean;
}

/** A session's server, and when it has stopped. */
export interface RunningSession {
  readonly server: McpServer;
  readonly ended: Promise<void>;
}

/**
 * Builds the MCP server of each session (each stateless POST) of an HTTP server: its own
 * state (session, log level, roots, subscriptions, elicitation, private state directory
 * under the server's) over the server's shared parts. The host, not the session, handles
 * idleness and signals, so the session's own idle timer and parent watch are off.
 */
export class SessionFactory {
  constructor(
    private readonly template: SessionTemplate,
    private readonly parts: ServerParts,
    private readonly broadcast: SessionBroadcast,
    /** The server's state directory; sessions get theirs under `sessions/`. */
    private readonly stateDir: string,
  ) {}

  /** Starts a session's server on `transport`; `ended` settles once it has stopped. */
  start(transport: Transport, stateless?: StatelessStart): RunningSession {
    const server = new McpServer({
      ...this.template,
      config: { ...this.template.config, idleTimeoutMs: 0, orphanCheckIntervalMs: 0 },
      transport,
      stateDir: this.sessionDir(),
      shared: this.parts,
    });
    if (stateless) {
      server.session.canNotify = false;
      server.session.protocolVersion = stateless.protocolVersion;
      if (!stateless.initializing) server.session.phase = 'ready';
      return { server, ended: server.run().then(() => undefined) };
    }
    const target = { lists: server.context.lists, log: server.log };
    this.broadcast.add(target);
    return { server, ended: server.run().then(() => this.broadcast.remove(target)) };
  }

  /**
   * A private directory (0700) for the session's tool calls and files, created on a best
   * effort, and made as a state dir so that the session's stop removes it (a stateless
   * server has a session per request).
   */
  private sessionDir(): string {
    const dir = join(this.stateDir, 'sessions', randomBytes(8).toString('hex'));
    try {
      makeStateDir(dir);
    } catch {
      // A full disk: tool calls report it (D94); the session itself still works.
    }
    return dir;
  }
}
