import { asObject } from '../../json/objects.js';
import { ErrorCode } from '../../jsonrpc/error-codes.js';
import { isRequestId } from '../../jsonrpc/messages.js';
import { RpcError } from '../../jsonrpc/rpc-error.js';
import {
  DEFAULT_PROTOCOL_VERSION,
  isSupportedProtocolVersion,
  SUPPORTED_PROTOCOL_VERSIONS,
  serverCapabilities,
  withoutNotifications,
} from '../protocol-versions.js';
import type { ServerContext } from '../server-context.js';
import type { ClientCapabilities, Implementation, InitializeResult } from '../types.js';
import { clientSupportsUi, recordUiSupport } from '../ui-extension.js';

function initialize(context: ServerContext, params: unknown): InitializeResult {
  const { session } = context;
  if (session.phase !== 'new') throw new RpcError(ErrorCode.InvalidRequest, 'Server already initialized');
  const request = asObject(params);
  const requested = request.protocolVersion ?? DEFAULT_PROTOCOL_VERSION;
  if (!isSupportedProtocolVersion(requested)) {
    throw RpcError.invalidParams(
      `Unsupported protocol version: ${String(requested)}. Supported: ${SUPPORTED_PROTOCOL_VERSIONS.join(',')}`,
      { requested, supported: SUPPORTED_PROTOCOL_VERSIONS },
    );
  }
  session.protocolVersion = requested;
  session.clientCapabilities = asObject(request.capabilities) as ClientCapabilities;
  session.clientInfo = typeof request.clientInfo === 'object' ? (request.clientInfo as Implementation) : undefined;
  session.uiSupported = clientSupportsUi(session.clientCapabilities) && !context.config.forceMinimal;
  recordUiSupport(context.stateDir, session.uiSupported, (message) => context.log.debug('mcp.lifecycle', message));
  session.phase = 'initializing';
  const { identity } = context.project;
  const capabilities = serverCapabilities(requested, context.config.forceMinimal, session.uiSupported);
  const result: InitializeResult = {
    protocolVersion: requested,
    capabilities: session.canNotify ? capabilities : withoutNotifications(capabilities),
    serverInfo: identity.info,
  };
  if (session.features.instructions && identity.instructions) result.instructions = identity.instructions;
  return result;
}

function markInitialized(context: ServerContext, fireReady: () => void): void {
  if (context.session.phase !== 'initializing') return;
  context.session.phase = 'ready';
  fireReady();
}

/**
 * initialize / initialized / ping / shutdown / exit / cancellation. `shutdown` and `exit`
 * are mcp-bash 1.x extensions kept for its clients and tests.
 */
export function registerLifecycle(context: ServerContext, fireReady: () => void): void {
  const { engine, session } = context;
  engine.setRequestHandler('initialize', ({ params }) => initialize(context, params));
  for (const method of ['notifications/initialized', 'initialized']) {
    engine.setNotificationHandler(method, () => markInitialized(context, fireReady));
  }
  engine.setRequestHandler('ping', () => ({}));
  engine.setRequestHandler('shutdown', () => {
    session.phase = 'shutting-down';
    context.armShutdownWatchdog();
    return {};
  });
  engine.setRequestHandler('exit', () => {
    if (session.phase !== 'shutting-down') {
      throw new RpcError(ErrorCode.ShutdownNotRequested, 'Shutdown not requested', 'Send shutdown before exit');
    }
    context.requestExit(0);
    return {};
  });
  engine.setNotificationHandler('exit', () => {
    if (session.phase === 'shutting-down') context.requestExit(0);
  });
  engine.setNotificationHandler('notifications/cancelled', (params) => {
    if (session.phase === 'new' || session.phase === 'initializing') return;
    const request = asObject(params);
    const id = request.requestId ?? request.id;
    if (!isRequestId(id)) return;
    const reason = typeof request.reason === 'string' ? request.reason : undefined;
    if (engine.cancel(id, reason)) {
      context.log.debug('mcp.core', `request ${JSON.stringify(id)} cancelled${reason ? `: ${reason}` : ''}`);
    }
  });
}
