import { asObject } from '../../json/objects.js';
import type { JsonRpcParams, RequestId } from '../../jsonrpc/messages.js';
import { isRequestId } from '../../jsonrpc/messages.js';
import type { CancelledParams, ClientCapabilities, Implementation, InitializeParams } from '../../spec/types.js';
import {
  DEFAULT_PROTOCOL_VERSION,
  isSupportedProtocolVersion,
  type ProtocolVersion,
  SUPPORTED_PROTOCOL_VERSIONS,
} from '../protocol-versions.js';
import { invalidParam, paramsObject } from './params-reader.js';

/** `initialize` params, checked: a version we speak (the newest when none is asked for). */
export interface InitializeRequest extends InitializeParams {
  readonly protocolVersion: ProtocolVersion;
  readonly capabilities: ClientCapabilities;
}

/** `initialize`: an unsupported version is -32602 naming the supported ones (original-behaviour §2.2). */
export function parseInitializeParams(params: JsonRpcParams | undefined): InitializeRequest {
  const request = paramsObject(params);
  const requested = request.protocolVersion ?? DEFAULT_PROTOCOL_VERSION;
  if (!isSupportedProtocolVersion(requested)) {
    throw invalidParam(
      'protocolVersion',
      `Unsupported protocol version: ${String(requested)}. Supported: ${SUPPORTED_PROTOCOL_VERSIONS.join(',')}`,
      { requested, supported: SUPPORTED_PROTOCOL_VERSIONS },
    );
  }
  const clientInfo = typeof request.clientInfo === 'object' ? (request.clientInfo as Implementation) : undefined;
  return {
    protocolVersion: requested,
    capabilities: asObject(request.capabilities) as ClientCapabilities,
    ...(clientInfo ? { clientInfo } : {}),
  };
}

/** `notifications/cancelled` as the engine can act on it: an id (`requestId`, or 1.x's `id`). */
export interface CancelRequest extends Omit<CancelledParams, 'requestId'> {
  readonly requestId: RequestId;
}

/** `notifications/cancelled`; undefined (the notification is dropped) without a usable id. */
export function parseCancelledParams(params: JsonRpcParams | undefined): CancelRequest | undefined {
  const request = paramsObject(params);
  const id = request.requestId ?? request.id;
  if (!isRequestId(id)) return undefined;
  return { requestId: id, ...(typeof request.reason === 'string' ? { reason: request.reason } : {}) };
}

/** Methods whose params carry nothing the server reads (ping, shutdown, exit, initialized, list_changed). */
export function ignoreParams(): Record<string, never> {
  return {};
}
