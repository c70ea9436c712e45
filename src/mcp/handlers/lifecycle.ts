import { ErrorCode } from '../../spec/error-codes.js';
import { RpcError } from '../../spec/rpc-error.js';
import type { InitializeResult } from '../../spec/types.js';
import {
  type CancelRequest,
  type InitializeRequest,
  ignoreParams,
  parseCancelledParams,
  parseInitializeParams,
} from '../params/lifecycle-params.js';
import type { HandlerModule, ServerContext } from '../server-context.js';
import { clientSupportsUi, recordUiSupport } from '../ui-extension.js';

function initialize(context: ServerContext, request: InitializeRequest): InitializeResult {
  const { session } = context;
  if (session.phase !== 'new') throw new RpcError(ErrorCode.InvalidRequest, 'Server already initialized');
  session.protocolVersion = request.protocolVersion;
  session.clientCapabilities = request.capabilities;
  session.clientInfo = request.clientInfo;
  // Before the capabilities: the resources module declares the MCP Apps extension from it.
  session.uiSupported = clientSupportsUi(request.capabilities) && !context.config.forceMinimal;
  recordUiSupport(context.stateDir, session.uiSupported, (message) => context.log.debug('mcp.lifecycle', message));
  session.phase = 'initializing';
  const { identity } = context.project;
  const result: InitializeResult = {
    protocolVersion: request.protocolVersion,
    capabilities: context.capabilities(),
    serverInfo: identity.info,
  };
  if (session.features.instructions && identity.instructions) result.instructions = identity.instructions;
  return result;
}

function markInitialized(context: ServerContext): void {
  if (context.session.phase !== 'initializing') return;
  context.session.phase = 'ready';
  context.announceReady();
}

function cancel(context: ServerContext, request: CancelRequest): void {
  const { engine, session } = context;
  if (session.phase === 'new' || session.phase === 'initializing') return;
  if (engine.cancel(request.requestId, request.reason)) {
    const reason = request.reason ? `: ${request.reason}` : '';
    context.log.debug('mcp.core', `request ${JSON.stringify(request.requestId)} cancelled${reason}`);
  }
}

/**
 * initialize / initialized / ping / shutdown / exit / cancellation. `shutdown` and `exit`
 * are mcp-bash 1.x extensions kept for its clients and tests. Its capabilities are the
 * other modules' (initialize's answer); it declares none of its own.
 */
/**
 * The lifecycle's answers are the server's own few bytes: MCPBASH_MAX_TOOL_OUTPUT_SIZE, which
 * caps what tools and resources produce, must not leave a client unable to connect (D275).
 */
export const UNCAPPED = { maxResponseBytes: Number.POSITIVE_INFINITY } as const;

export const lifecycleModule: HandlerModule = {
  name: 'lifecycle',
  register(context) {
    const { methods, session } = context;
    methods.request('initialize', parseInitializeParams, ({ params }) => initialize(context, params), UNCAPPED);
    for (const method of ['notifications/initialized', 'initialized']) {
      methods.notification(method, ignoreParams, () => markInitialized(context));
    }
    methods.request('ping', ignoreParams, () => ({}), UNCAPPED);
    methods.request(
      'shutdown',
      ignoreParams,
      () => {
        session.phase = 'shutting-down';
        context.armShutdownWatchdog();
        return {};
      },
      UNCAPPED,
    );
    methods.request(
      'exit',
      ignoreParams,
      () => {
        if (session.phase !== 'shutting-down') {
          throw new RpcError(ErrorCode.ShutdownNotRequested, 'Shutdown not requested', 'Send shutdown before exit');
        }
        context.requestExit(0);
        return {};
      },
      UNCAPPED,
    );
    methods.notification('exit', ignoreParams, () => {
      if (session.phase === 'shutting-down') context.requestExit(0);
    });
    methods.notification('notifications/cancelled', parseCancelledParams, (request) => cancel(context, request));
    return undefined;
  },
};
