import { envInt, envNumber } from '../../config/env-values.js';
import { asObject } from '../../json/objects.js';
import { ErrorCode } from '../../jsonrpc/error-codes.js';
import { RpcError } from '../../jsonrpc/rpc-error.js';
import { sha256Hex } from '../../project/registry/canonical-json.js';
import type { ProviderHost } from '../../providers/resource-provider.js';
import { titlesSupported, toListedResource, toListedTemplate, toListedUiResource } from '../listed-items.js';
import { listResult, paginate } from '../pagination.js';
import { type ResolvedResource, ResourceReader } from '../resource-reader.js';
import { ResourceSubscriptions } from '../resource-subscriptions.js';
import type { HandlerModule, ServerContext } from '../server-context.js';
import type { JsonObject, ReadResourceResult } from '../types.js';

/** How providers run in this session; the file provider may also read inside the session's configured roots. */
function providerHost(context: ServerContext): ProviderHost {
  const { config, env } = context;
  return {
    layout: context.project.layout,
    home: context.home,
    env,
    maxResourceBytes: config.maxResourceBytes,
    maxStderrBytes: config.maxToolStderrBytes,
    stderrTailBytes: Math.max(config.stderrTailBytes, 1024),
    killGraceMs: config.killGraceMs,
    processes: context.processes,
    sessionRoots: async () => (await context.roots.configured()).map((root) => root.path),
  };
}

/**
 * The provider timeout of one request (original-behaviour §2.13): a positive
 * `params.timeoutSecs`, else the method's default.
 */
function requestTimeoutSecs(params: JsonObject, fallback: number): number {
  const value = params.timeoutSecs;
  return typeof value === 'number' && Number.isFinite(value) && value > 0 ? value : fallback;
}

/** What a read returned, to notice changes: the content's hash, or the error. */
function fingerprintOf(outcome: { bytes: Buffer } | { error: unknown }): string {
  if ('bytes' in outcome) return `ok:${sha256Hex(outcome.bytes)}`;
  const error = outcome.error;
  return error instanceof RpcError ? `error:${error.code}:${error.message}` : `error:${String(error)}`;
}

/** resources/list and resources/templates/list: paginated, spec fields only (D16, D21). */
function registerLists(context: ServerContext): void {
  const { engine, registries, session } = context;
  engine.setRequestHandler('resources/list', async ({ params }) => {
    const snapshot = await registries.resources.snapshot();
    // UI resources (MCP Apps) follow the others, as 1.x appended them.
    const ui = await registries.ui.snapshot();
    const withTitle = titlesSupported(session.protocolVersion);
    const items = [
      ...snapshot.items.map((item) => toListedResource(item, withTitle)),
      ...ui.items.map((item) => toListedUiResource(item, withTitle)),
    ];
    const hash = ui.items.length === 0 ? snapshot.hash : sha256Hex(`${snapshot.hash}\0${ui.hash}`);
    return listResult('resources', paginate(items, 'resources', hash, asObject(params)));
  });
  engine.setRequestHandler('resources/templates/list', async ({ params }) => {
    const snapshot = await registries.resourceTemplates.snapshot();
    const page = paginate(snapshot.items, 'resourceTemplates', snapshot.hash, asObject(params));
    const withTitle = titlesSupported(session.protocolVersion);
    return listResult('resourceTemplates', {
      ...page,
      items: page.items.map((item) => toListedTemplate(item, withTitle)),
    });
  });
}

/**
 * resources/subscribe {uri} → {} (D18; the id rides in `_meta` for 1.x clients), after a
 * first read that must succeed (`timeoutSecs`, else MCPBASH_DEFAULT_SUBSCRIBE_TIMEOUT), at
 * most MCPBASH_MAX_SUBSCRIPTIONS (64) URIs per session; resources/unsubscribe {uri} → {}.
 * Changes found by polling (MCPBASH_RESOURCES_POLL_INTERVAL_SECS, default 2, 0 off; backing
 * off while nothing changes) send resources/updated {uri}.
 */
function registerSubscriptions(context: ServerContext, reader: ResourceReader): void {
  const { engine, env, config } = context;
  const subscribeTimeout = envInt(env, 'MCPBASH_DEFAULT_SUBSCRIBE_TIMEOUT', 120, { min: 0 });
  const subscriptions = new ResourceSubscriptions({
    intervalMs: envNumber(env, 'MCPBASH_RESOURCES_POLL_INTERVAL_SECS', 2, { min: 0 }) * 1000,
    maxSubscriptions: envInt(env, 'MCPBASH_MAX_SUBSCRIPTIONS', 64, { min: 1 }),
    poll: async (target: ResolvedResource, signal: AbortSignal) => {
      let release: (() => void) | undefined;
      try {
        // Polls take a concurrency slot like requests do: they cannot crowd out tool calls.
        release = await engine.acquireSlot(signal);
        return fingerprintOf(await reader.read(target, { timeoutSecs: config.defaultToolTimeoutSecs, signal }));
      } catch (error) {
        return fingerprintOf({ error });
      } finally {
        release?.();
      }
    },
    notify: (uri) => {
      if (context.session.isReady) engine.notify('notifications/resources/updated', { uri });
    },
  });
  context.onStop(() => subscriptions.stop());

  engine.setRequestHandler(
    'resources/subscribe',
    async ({ params, signal }) => {
      if (!context.session.canNotify) {
        throw new RpcError(
          ErrorCode.MethodNotFound,
          'resources/subscribe needs a session: this server is stateless and cannot send resources/updated',
        );
      }
      const request = asObject(params);
      const target = await reader.resolve(request);
      subscriptions.checkRoom(target.uri);
      const first = await reader.read(target, { timeoutSecs: requestTimeoutSecs(request, subscribeTimeout), signal });
      const id = subscriptions.add(target, fingerprintOf(first));
      return { _meta: { 'mcpbash/subscriptionId': id } };
    },
    { queued: true },
  );

  engine.setRequestHandler('resources/unsubscribe', ({ params }) => {
    const request = asObject(params);
    const uri = typeof request.uri === 'string' && request.uri !== '' ? request.uri : undefined;
    const id =
      typeof request.subscriptionId === 'string' && request.subscriptionId !== '' ? request.subscriptionId : undefined;
    if (uri === undefined && id === undefined)
      throw RpcError.invalidParams('Resource uri required', 'Pass params.uri, the URI given to resources/subscribe');
    subscriptions.remove({ ...(uri !== undefined ? { uri } : {}), ...(id !== undefined ? { id } : {}) });
    return {};
  });
}

/**
 * resources/list, resources/templates/list, resources/read (queued: it starts a provider;
 * `timeoutSecs`, else MCPBASH_DEFAULT_TOOL_TIMEOUT), subscriptions.
 */
export const resourcesModule: HandlerModule = (context) => {
  const reader = new ResourceReader(context.registries, providerHost(context), context.config.maxUiResourceBytes);
  registerLists(context);
  context.engine.setRequestHandler(
    'resources/read',
    async ({ params, signal }): Promise<ReadResourceResult> => {
      const request = asObject(params);
      const target = await reader.resolve(request);
      const { contents } = await reader.read(target, {
        timeoutSecs: requestTimeoutSecs(request, context.config.defaultToolTimeoutSecs),
        signal,
      });
      return { contents: [contents] };
    },
    { queued: true },
  );
  registerSubscriptions(context, reader);
};
