import { randomUUID } from 'node:crypto';
import type { RequestContext } from '../../jsonrpc/engine.js';
import type { ClientRequestBridge } from '../../runner/tool-runtime.js';
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

interface ToolElicitation {
  readonly mode: ElicitationMode;
  readonly message: string;
  readonly schema?: Record<string, unknown>;
  readonly url?: string;
}

function parseRequest(request: unknown): ToolElicitation | undefined {
  if (typeof request !== 'object' || request === null) return undefined;
  const { mode, message, schema, url } = request as Record<string, unknown>;
  if (typeof message !== 'string') return undefined;
  if (mode === 'url') return typeof url === 'string' ? { mode: 'url', message, url } : undefined;
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

function elicitationParams(context: Pick<SessionRole, 'session'>, request: ToolElicitation): Record<string, unknown> {
  if (request.mode === 'url')
    return { mode: 'url', message: request.message, url: request.url, elicitationId: randomUUID() };
  // `mode` exists from 2025-11-25; older clients know only the form shape.
  const params: Record<string, unknown> = {
    message: request.message,
    requestedSchema: normalizeRequestedSchema(request.schema ?? {}),
  };
  if (context.session.protocolVersion === '2025-11-25') params.mode = 'form';
  return params;
}

/**
 * Bridges a tool's elicitation request (docs/TOOL-CONTRACT.md) to `elicitation/create`.
 * Enabled only when the client declared `elicitation`; a mode the client lacks is
 * declined without asking. Cancellation of the tool's call answers `cancel`; a client
 * error or timeout answers `error`.
 */
export const elicitationModule: HandlerModule = {
  name: 'elicitation',
  register(context) {
    const timeoutMs = context.config.elicitationTimeoutMs;
    const bridgeVia = (requester: Pick<RequestContext, 'request'>): ClientRequestBridge => ({
      get supported() {
        return clientElicitationModes(context.session.clientCapabilities.elicitation).size > 0;
      },
      async ask(rawRequest, signal) {
        const request = parseRequest(rawRequest);
        if (!request) return { action: 'error', content: null };
        if (!clientElicitationModes(context.session.clientCapabilities.elicitation).has(request.mode)) {
          return { action: 'decline', content: null };
        }
        try {
          const result = await requester.request('elicitation/create', elicitationParams(context, request), {
            timeoutMs,
            signal,
          });
          return normalizeAnswer(result);
        } catch (error) {
          if (signal.aborted) return { action: 'cancel', content: null };
          context.log.info('mcp.elicitation', `elicitation/create failed: ${(error as Error).message}`);
          return { action: 'error', content: null };
        }
      },
    });
    context.elicitation = sessionBridge(context.engine, bridgeVia);
    return undefined;
  },
};
