import { randomUUID } from 'node:crypto';
import type { RequestContext } from '../../jsonrpc/engine.js';
import type { ClientRequestBridge } from '../../runner/tool-runtime.js';
import { ErrorCode } from '../../spec/error-codes.js';
import { RpcError } from '../../spec/rpc-error.js';
import { type HandlerModule, type SessionRole, sessionBridge } from '../server-context.js';

type ElicitationMode = 'form' | 'url';

/** The modes a client accepts: legacy `{}` means form only; `url` (or 1.x's `oob`) adds URLs. */
function clientElicitationModes(capability: unknown): Set<ElicitationMode> {
  const modes = new Set<ElicitationMode>();
  if (typeof capability !== 'object' || capability === null) return modes;
  const declared = Object.keys(capability);
  if (declared.length === 0 || declared.includes('form')) modes.add('form');
  if (declared.includes('url') || declared.includes('oob')) modes.add('url');
  return modes;
}

/** What a tool asks for: a form, a URL to visit, or telling the client a URL's step is done (D296). */
type ToolElicitation =
  | { readonly mode: 'form'; readonly message: string; readonly schema: Record<string, unknown> }
  | { readonly mode: 'url'; readonly message: string; readonly url: string; readonly elicitationId?: string }
  | { readonly mode: 'complete'; readonly elicitationId: string };

/** An elicitation id a tool chose: 1-128 printable characters. */
const ELICITATION_ID = /^[\x21-\x7e]{1,128}$/;

function parseRequest(request: unknown): ToolElicitation | undefined {
  if (typeof request !== 'object' || request === null) return undefined;
  const { mode, message, schema, url, elicitationId } = request as Record<string, unknown>;
  const id = typeof elicitationId === 'string' && ELICITATION_ID.test(elicitationId) ? elicitationId : undefined;
  if (mode === 'complete') return id === undefined ? undefined : { mode, elicitationId: id };
  if (typeof message !== 'string') return undefined;
  if (mode === 'url')
    return typeof url === 'string'
      ? { mode, message, url, ...(id !== undefined ? { elicitationId: id } : {}) }
      : undefined;
  if (typeof schema !== 'object' || schema === null) return undefined;
  return { mode: 'form', message, schema: schema as Record<string, unknown> };
}

/** What the tool reads back: `{action, content}`, content only for accept. */
function normalizeAnswer(result: unknown): { action: string; content: unknown } {
  const { action, content } = (result ?? {}) as { action?: unknown; content?: unknown };
  if (action === 'accept') return { action, content: content ?? {} };
  if (action === 'decline' || action === 'cancel') return { action, content: null };
  return { action: 'error', content: null };
}

/**
 * A titled multi-select lists its options under `items.anyOf` (MCP 2025-11-25); 1.x's SDK
 * and tools written for it use `items.oneOf`, which clients reject. Those are rewritten;
 * everything else is passed on as the tool wrote it.
 */
function normalizeRequestedSchema(schema: Record<string, unknown>): Record<string, unknown> {
  const properties = schema.properties;
  if (typeof properties !== 'object' || properties === null) return schema;
  let changed = false;
  const fixed: Record<string, unknown> = {};
  for (const [name, property] of Object.entries(properties)) {
    const { type, items } = (property ?? {}) as { type?: unknown; items?: unknown };
    const options = (items as { oneOf?: unknown } | undefined)?.oneOf;
    if (type === 'array' && Array.isArray(options) && (items as { anyOf?: unknown }).anyOf === undefined) {
      const { oneOf: _oneOf, ...rest } = items as Record<string, unknown>;
      fixed[name] = { ...(property as object), items: { ...rest, anyOf: options } };
      changed = true;
    } else {
      fixed[name] = property;
    }
  }
  return changed ? { ...schema, properties: fixed } : schema;
}

function formParams(
  context: Pick<SessionRole, 'session'>,
  request: Extract<ToolElicitation, { mode: 'form' }>,
): Record<string, unknown> {
  // `mode` exists from 2025-11-25; older clients know only the form shape.
  const params: Record<string, unknown> = {
    message: request.message,
    requestedSchema: normalizeRequestedSchema(request.schema),
  };
  if (context.session.features.elicitationModes) params.mode = 'form';
  return params;
}

/** The URL elicitations a session issued and has not completed, at most this many (the oldest go first). */
const MAX_OPEN_URL_ELICITATIONS = 1000;

/**
 * Bridges a tool's elicitation request (docs/TOOL-CONTRACT.md) to `elicitation/create`.
 * Enabled only when the client declared `elicitation`; a mode the client lacks is
 * declined without asking, except a URL in a 2025-11-25 session: the call then fails with
 * -32042 naming it, for the client to show and retry (D296). A tool tells the client that a
 * URL's step is done (`notifications/elicitation/complete`) for ids this session issued.
 * Cancellation of the tool's call answers `cancel`; a client error or timeout `error`.
 */
export const elicitationModule: HandlerModule = {
  name: 'elicitation',
  register(context) {
    const timeoutMs = context.config.elicitationTimeoutMs;
    const modes = () => clientElicitationModes(context.session.clientCapabilities.elicitation);
    const open = new Set<string>();
    const issue = (id: string) => {
      open.add(id);
      if (open.size > MAX_OPEN_URL_ELICITATIONS) open.delete(open.values().next().value as string);
    };
    const urlFate = (): ClientRequestBridge['urlElicitation'] => {
      if (modes().has('url')) return 'ask';
      return context.session.features.elicitationModes ? 'error' : undefined;
    };
    const decline = () => ({ action: 'decline', content: null });
    const bridgeVia = (requester: Pick<RequestContext, 'request' | 'notify'>): ClientRequestBridge => {
      /** Sends `elicitation/create`; the answer normalised, or why there is none. */
      const create = async (params: Record<string, unknown>, signal: AbortSignal) => {
        try {
          return normalizeAnswer(await requester.request('elicitation/create', params, { timeoutMs, signal }));
        } catch (error) {
          if (signal.aborted) return { action: 'cancel', content: null };
          context.log.info('mcp.elicitation', `elicitation/create failed: ${(error as Error).message}`);
          return { action: 'error', content: null };
        }
      };
      return {
        get supported() {
          return modes().size > 0;
        },
        get urlElicitation() {
          return urlFate();
        },
        async ask(rawRequest, signal) {
          const request = parseRequest(rawRequest);
          if (!request) return { action: 'error', content: null };
          if (request.mode === 'complete') {
            if (!modes().has('url') || !open.delete(request.elicitationId)) {
              context.log.info('mcp.elicitation', `no open URL elicitation ${request.elicitationId} to complete`);
              return { action: 'error', content: null };
            }
            requester.notify('notifications/elicitation/complete', { elicitationId: request.elicitationId });
            return { action: 'accept', content: null };
          }
          if (request.mode === 'form')
            return modes().has('form') ? create(formParams(context, request), signal) : decline();
          const params = { mode: 'url', message: request.message, url: request.url };
          const elicitationId = request.elicitationId ?? randomUUID();
          if (modes().has('url')) {
            issue(elicitationId);
            return { ...(await create({ ...params, elicitationId }, signal)), elicitationId };
          }
          if (urlFate() !== 'error') return decline();
          throw new RpcError(ErrorCode.UrlElicitationRequired, `URL elicitation required: ${request.message}`, {
            elicitations: [{ ...params, elicitationId }],
          });
        },
      };
    };
    context.elicitation = sessionBridge(context.engine, bridgeVia);
    return undefined;
  },
};
