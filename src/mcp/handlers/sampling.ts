import { isObject } from '../../json/objects.js';
import type { RequestContext } from '../../jsonrpc/engine.js';
import type { ClientRequestBridge } from '../../runner/tool-runtime.js';
import { RpcError } from '../../spec/rpc-error.js';
import type { JsonObject } from '../../spec/types.js';
import { type HandlerModule, sessionBridge } from '../server-context.js';

/** The members of a tool's request (sdk-sh/lib/sample.sh) that `sampling/createMessage` takes. */
const REQUEST_MEMBERS = [
  'messages',
  'systemPrompt',
  'maxTokens',
  'temperature',
  'stopSequences',
  'modelPreferences',
  'includeContext',
  'metadata',
] as const;

/** A tool's request as `sampling/createMessage` params: messages (a non-empty list) and maxTokens are required. */
function samplingParams(request: unknown): JsonObject | undefined {
  if (!isObject(request)) return undefined;
  const { messages, maxTokens } = request;
  if (!Array.isArray(messages) || messages.length === 0 || !messages.every(isObject)) return undefined;
  if (typeof maxTokens !== 'number' || !Number.isInteger(maxTokens) || maxTokens <= 0) return undefined;
  const params: JsonObject = {};
  for (const member of REQUEST_MEMBERS) if (request[member] !== undefined) params[member] = request[member];
  return params;
}

/**
 * Bridges a tool's sampling request (docs/TOOL-CONTRACT.md) to `sampling/createMessage`,
 * tied to the call: enabled only when the client declared `sampling`. The tool reads back
 * `{action: "accept", content: CreateMessageResult}`; `decline` when the client answered
 * with an error (its user rejected the request; content `{code, message}`), `cancel` when
 * the call was cancelled, `error` for a bad request, no answer in time
 * (MCPBASH_SAMPLING_TIMEOUT, the server 5 s later) or the session ending.
 */
export const samplingModule: HandlerModule = {
  name: 'sampling',
  register(context) {
    const timeoutMs = context.config.samplingTimeoutMs;
    const supported = () => isObject(context.session.clientCapabilities.sampling);
    const bridgeVia = (requester: Pick<RequestContext, 'request'>): ClientRequestBridge => ({
      get supported() {
        return supported();
      },
      async ask(rawRequest, signal) {
        if (!supported()) return { action: 'decline', content: null };
        const params = samplingParams(rawRequest);
        if (!params) return { action: 'error', content: null };
        try {
          const result = await requester.request('sampling/createMessage', params, { timeoutMs, signal });
          return isObject(result) ? { action: 'accept', content: result } : { action: 'error', content: null };
        } catch (error) {
          if (signal.aborted) return { action: 'cancel', content: null };
          const message = (error as Error).message;
          context.log.info('mcp.sampling', `sampling/createMessage failed: ${message}`);
          // A client whose user rejects the request answers with an error reply (MCP's example: -1);
          // no reply in time, or the session ending, is an error.
          return error instanceof RpcError
            ? { action: 'decline', content: { code: error.code, message } }
            : { action: 'error', content: { message } };
        }
      },
    });
    context.sampling = sessionBridge(context.engine, bridgeVia);
    return undefined;
  },
};
