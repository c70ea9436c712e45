import { randomBytes } from 'node:crypto';
import type { StopMode } from '../mcp/mcp-server.js';
import { HttpSession, type SessionOptions } from './http-session.js';
import type { StatelessStart } from './session-factory.js';
import { sessionLogId } from './session-log-id.js';

/**
 * The sessions of a stateful HTTP server, by id. Ids are 192 random bits (base64url, the
 * visible ASCII the spec asks for): a session is reachable only by whoever got its id.
 */
export class SessionManager {
  private readonly sessions = new Map<string, HttpSession>();
  /** The POSTs of a stateless server being answered, each its own short session. */
  private readonly stateless = new Set<HttpSession>();

  constructor(
    private readonly options: Omit<SessionOptions, 'onEnded'>,
    private readonly maxSessions: number,
  ) {}

  get size(): number {
    return this.sessions.size;
  }

  /**
   * A new session, or undefined when MCPBASH_HTTP_MAX_SESSIONS are open and initialized.
   * When all are open, the oldest one still not initialized ends to make room: clients that
   * never finish the handshake cannot lock out those that do.
   */
  create(): HttpSession | undefined {
    if (this.sessions.size >= this.maxSessions && !this.evictUninitialized()) return undefined;
    const id = randomBytes(24).toString('base64url');
    const session = new HttpSession(id, {
      ...this.options,
      onEnded: (ended) => {
        if (this.sessions.get(id) === ended) this.sessions.delete(id);
      },
    });
    this.sessions.set(id, session);
    this.options.log('debug', `session ${sessionLogId(id)} started`);
    return session;
  }

  /** Ends the oldest session not yet initialized (the map keeps insertion order); false when there is none. */
  private evictUninitialized(): boolean {
    for (const [id, session] of this.sessions) {
      if (!session.initializing) continue;
      this.sessions.delete(id);
      this.options.log(
        'info',
        `session ${sessionLogId(id)} not initialized; ended to make room (MCPBASH_HTTP_MAX_SESSIONS)`,
      );
      void session.end('abort');
      return true;
    }
    return false;
  }

  /** The one-POST session of a stateless server; it ends with its answer. */
  createStateless(start: StatelessStart): HttpSession {
    const session = new HttpSession(
      undefined,
      { ...this.options, onEnded: (ended) => this.stateless.delete(ended) },
      start,
    );
    this.stateless.add(session);
    return session;
  }

  /** The live session with this id. */
  get(id: string): HttpSession | undefined {
    const session = this.sessions.get(id);
    return session && !session.isOver ? session : undefined;
  }

  /** Ends every session (drain: running requests may finish, within MCPBASH_SHUTDOWN_TIMEOUT). */
  async endAll(mode: StopMode): Promise<void> {
    const all = [...this.sessions.values(), ...this.stateless];
    await Promise.all(all.map((session) => session.end(mode)));
  }
}
