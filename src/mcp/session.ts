import { ErrorCode } from '../spec/error-codes.js';
import { RpcError } from '../spec/rpc-error.js';
import type { ClientCapabilities, Implementation } from '../spec/types.js';
import {
  DEFAULT_PROTOCOL_VERSION,
  featuresOf,
  type ProtocolFeatures,
  type ProtocolVersion,
} from './protocol-versions.js';

/**
 * - `new`: waiting for `initialize`
 * - `initializing`: answered `initialize`, waiting for `notifications/initialized`
 * - `ready`: serving
 * - `shutting-down`: after `shutdown` (or while stopping): only exit and cancellations
 */
export type SessionPhase = 'new' | 'initializing' | 'ready' | 'shutting-down';

/** Methods that work in every phase (ping too: the spec allows it at any time, decision D19). */
const LIFECYCLE_METHODS = new Set([
  'initialize',
  'notifications/initialized',
  'initialized',
  'notifications/cancelled',
  'ping',
  'shutdown',
  'exit',
]);

/** The connection's negotiated state, and the gate every message passes. */
export class Session {
  phase: SessionPhase = 'new';
  protocolVersion: ProtocolVersion = DEFAULT_PROTOCOL_VERSION;
  clientCapabilities: ClientCapabilities = {};
  clientInfo: Implementation | undefined;
  /** The client declared the MCP Apps extension (`io.modelcontextprotocol/ui`). */
  uiSupported = false;
  /**
   * Whether the transport can deliver what the client did not ask for (list_changed,
   * resources/updated): not stateless HTTP, where each POST stands alone.
   */
  canNotify = true;

  /** What the session's version offers; no list_changed where nobody could be told (stateless). */
  get features(): ProtocolFeatures {
    const features = featuresOf(this.protocolVersion);
    return this.canNotify ? features : { ...features, listChanged: false };
  }

  get isReady(): boolean {
    return this.phase === 'ready';
  }

  /**
   * Lifecycle gating (original-behaviour §2.4): before `notifications/initialized` only the
   * lifecycle methods run; after `shutdown` only `exit`, `shutdown` and cancellations (and
   * ping). A refused notification is dropped silently.
   */
  admit(method: string): RpcError | undefined {
    if (this.phase === 'shutting-down') {
      if (LIFECYCLE_METHODS.has(method) && method !== 'initialize') return undefined;
      return new RpcError(ErrorCode.ServerShuttingDown, 'Server shutting down');
    }
    if (this.phase === 'ready' || LIFECYCLE_METHODS.has(method)) return undefined;
    return new RpcError(
      ErrorCode.ServerNotInitialized,
      'Server not initialized',
      'Send initialize, then the notifications/initialized notification, before other requests',
    );
  }
}
