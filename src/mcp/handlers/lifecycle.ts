import { asObject } from '../../json/objects.js';
import type { JsonRpcParams, RequestId } from '../../jsonrpc/messages.js';
import { isRequestId } from '../../jsonrpc/messages.js';
import { ErrorCode } from '../../spec/error-codes.js';
import { RpcError } from '../../spec/rpc-error.js';
import type {
  CancelledParams,
  ClientCapabilities,
  Implementation,
  InitializeParams,
  InitializeResult,
} from '../../spec/types.js';
import { ignoreParams, invalidParam, paramsObject } from '../params-reader.js';
import {
  DEFAULT_PROTOCOL_VERSION,
  isSupportedProtocolVersion,
  type ProtocolVersion,
  SUPPORTED_PROTOCOL_VERSIONS,
} from '../protocol-versions.js';
import type { HandlerModule, ProjectRole, SessionControl, SessionRole } from '../server-context.js';
import { clientSupportsUi, recordUiSupport } from '../ui-extension.js';

/** `initialize` params, checked: the version we answer with (the newest when none is asked, or one we do not speak). */
interface InitializeRequest extends InitializeParams {
  readonly protocolVersion: ProtocolVersion;
  readonly capabilities: ClientCapabilities;
}

/**
 * `initialize`: the version asked for when we speak it; any other is answered with the
 * newest we speak, for the client to accept or to disconnect (MCP lifecycle, D291). Only a
 * version that is not a string is -32602.
 */
function parseInitializeParams(params: JsonRpcParams | undefined): InitializeRequest {
  const request = paramsObject(params);
  const requested = request.protocolVersion ?? DEFAULT_PROTOCOL_VERSION;
  if (typeof requested !== 'string') {
    throw invalidParam('protocolVersion', 'protocolVersion must be a string', {
      requested,
      supported: SUPPORTED_PROTOCOL_VERSIONS,
    });
  }
  const clientInfo = typeof request.clientInfo === 'object' ? (request.clientInfo as Implementation) : undefined;
  return {
    protocolVersion: isSupportedProtocolVersion(requested) ? requested : DEFAULT_PROTOCOL_VERSION,
    capabilities: asObject(request.capabilities) as ClientCapabilities,
    ...(clientInfo ? { clientInfo } : {}),
  };
}

/** `notifications/cancelled` as the engine can act on it: an id (`requestId`, or 1.x's `id`). */
interface CancelRequest extends Omit<CancelledParams, 'requestId'> {
  readonly requestId: RequestId;
}

/** `notifications/cancelled`; undefined (the notification is dropped) without a usable id. */
function parseCancelledParams(params: JsonRpcParams | undefined): CancelRequest | undefined {
  const request = paramsObject(params);
  const id = request.requestId ?? request.id;
  if (!isRequestId(id)) return undefined;
  return { requestId: id, ...(typeof request.reason === 'string' ? { reason: request.reason } : {}) };
}

function initialize(
  context: SessionRole & SessionControl & Pick<ProjectRole, 'project' | 'stateDir'>,
  request: InitializeRequest,
): InitializeResult {
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

function markInitialized(context: Pick<SessionRole, 'session'> & SessionControl): void {
  if (context.session.phase !== 'initializing') return;
  context.session.phase = 'ready';
  context.announceReady();
}

function cancel(context: SessionRole, request: CancelRequest): void {
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
