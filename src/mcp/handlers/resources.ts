import { sha256Hex } from '../../json/canonical-json.js';
import type { JsonRpcParams } from '../../jsonrpc/messages.js';
import { UI_EXTENSION_ID, UI_MIME_TYPE } from '../../project/ui/ui-resource.js';
import type { ProviderHost } from '../../providers/resource-provider.js';
import { ErrorCode } from '../../spec/error-codes.js';
import { RpcError } from '../../spec/rpc-error.js';
import type { ReadResourceResult } from '../../spec/types.js';
import { titlesSupported, toListedResource, toListedTemplate, toListedUiResource } from '../listed-items.js';
import { listPage, listResult, paginate, parseListParams } from '../pagination.js';
import { invalidParam, optionalString, paramsObject, positiveSeconds } from '../params-reader.js';
import { type ResolvedResource, ResourceReader, type ResourceRequest } from '../resource-reader.js';
import { ResourceSubscriptions } from '../resource-subscriptions.js';
import { scriptHost } from '../script-host.js';
import type { HandlerModule, ProjectRole, ServerContext, SessionRole } from '../server-context.js';
import { toWireError } from '../wire-errors.js';

/** `resources/unsubscribe`: the URI given to subscribe, or the subscription's id (1.x). */
interface UnsubscribeRequest {
  readonly uri?: string;
  readonly subscriptionId?: string;
}

/** resources/read and resources/subscribe params: `uri` and/or `name`, strings without NUL. */
function parseResourceParams(params: JsonRpcParams | undefined): ResourceRequest {
  const request = paramsObject(params);
  const uri = optionalString(request, 'uri');
  const name = optionalString(request, 'name');
  if (uri === undefined && name === undefined) {
    throw invalidParam('uri', 'Resource name or uri required', {
      hint: 'Pass params.uri (a URI from resources/list, or one expanded from a template)',
    });
  }
  // A NUL cannot be passed to a provider (argv); no valid URI contains a raw one.
  for (const [field, value] of [
    ['uri', uri],
    ['name', name],
  ] as const) {
    if (value?.includes('\0')) throw invalidParam(field, 'Invalid resource URI: it contains a NUL character');
  }
  const timeoutSecs = positiveSeconds(request.timeoutSecs);
  return {
    ...(uri !== undefined ? { uri } : {}),
    ...(name !== undefined ? { name } : {}),
    ...(timeoutSecs !== undefined ? { timeoutSecs } : {}),
  };
}

/** resources/unsubscribe params: a non-empty `uri` or `subscriptionId`. */
function parseUnsubscribeParams(params: JsonRpcParams | undefined): UnsubscribeRequest {
  const request = paramsObject(params);
  const uri = typeof request.uri === 'string' && request.uri !== '' ? request.uri : undefined;
  const id =
    typeof request.subscriptionId === 'string' && request.subscriptionId !== '' ? request.subscriptionId : undefined;
  if (uri === undefined && id === undefined)
    throw invalidParam('uri', 'Resource uri required', {
      hint: 'Pass params.uri, the URI given to resources/subscribe',
    });
  return { ...(uri !== undefined ? { uri } : {}), ...(id !== undefined ? { subscriptionId: id } : {}) };
}

/** How providers run in this session; the file provider may also read inside the session's configured roots. */
function providerHost(context: ProjectRole & Pick<SessionRole, 'config'> & Pick<ServerContext, 'roots'>): ProviderHost {
  const { config } = context;
  return {
    ...scriptHost(context),
    maxResourceBytes: config.maxResourceBytes,
    maxStderrBytes: config.maxToolStderrBytes,
    sessionRoots: async () => (await context.roots.configured()).map((root) => root.path),
  };
}

/** What a read returned, to notice changes: the content's hash, or the error. */
function fingerprintOf(outcome: { bytes: Buffer } | { error: unknown }): string {
  if ('bytes' in outcome) return `ok:${sha256Hex(outcome.bytes)}`;
  const error = toWireError(outcome.error);
  return error instanceof RpcError ? `error:${error.code}:${error.message}` : `error:${String(error)}`;
}

/** resources/list and resources/templates/list: paginated, spec fields only (D16, D21), within the registry cap. */
function registerLists(context: SessionRole & Pick<ProjectRole, 'registries'>): void {
  const { methods, registries, session, config } = context;
  const listOptions = { maxResponseBytes: config.registryMaxBytes };
  methods.request(
    'resources/list',
    parseListParams,
    async ({ params }) => {
      const snapshot = await registries.resources.snapshot();
      // UI resources (MCP Apps) follow the others, as 1.x appended them.
      const ui = await registries.ui.snapshot();
      const withTitle = titlesSupported(session.protocolVersion);
      const items = [
        ...snapshot.items.map((item) => toListedResource(item, withTitle)),
        ...ui.items.map((item) => toListedUiResource(item, withTitle)),
      ];
      const hash = ui.items.length === 0 ? snapshot.hash : sha256Hex(`${snapshot.hash}\0${ui.hash}`);
      return listResult('resources', paginate(items, 'resources', hash, params));
    },
    listOptions,
  );
  methods.request(
    'resources/templates/list',
    parseListParams,
    async ({ params }) => {
      const snapshot = await registries.resourceTemplates.snapshot();
      const withTitle = titlesSupported(session.protocolVersion);
      return listPage('resourceTemplates', snapshot.items, snapshot.hash, params, (item) =>
        toListedTemplate(item, withTitle),
      );
    },
    listOptions,
  );
}

/**
 * resources/subscribe {uri} → {} (D18; the id rides in `_meta` for 1.x clients), after a
 * first read that must succeed (`timeoutSecs`, else MCPBASH_DEFAULT_SUBSCRIBE_TIMEOUT), at
 * most MCPBASH_MAX_SUBSCRIPTIONS (64) URIs per session; resources/unsubscribe {uri} → {}.
 * Changes found by polling (MCPBASH_RESOURCES_POLL_INTERVAL_SECS, default 2, 0 off; backing
 * off while nothing changes) send resources/updated {uri}. Returns the subscriptions, to stop.
 */
function registerSubscriptions(context: ServerContext, reader: ResourceReader): ResourceSubscriptions {
  const { methods, engine, config } = context;
  const subscribeTimeout = config.subscribeTimeoutSecs;
  const subscriptions = new ResourceSubscriptions({
    intervalMs: config.resourcesPollIntervalMs,
    maxSubscriptions: config.maxSubscriptions,
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

  methods.request(
    'resources/subscribe',
    parseResourceParams,
    async ({ params, signal }) => {
      if (!context.session.canNotify) {
        throw new RpcError(
          ErrorCode.MethodNotFound,
          'resources/subscribe needs a session: this server is stateless and cannot send resources/updated',
        );
      }
      const target = await reader.resolve(params);
      subscriptions.checkRoom(target.uri);
      const first = await reader.read(target, { timeoutSecs: params.timeoutSecs ?? subscribeTimeout, signal });
      const id = subscriptions.add(target, fingerprintOf(first));
      return { _meta: { 'mcpbash/subscriptionId': id } };
    },
    { queued: true },
  );

  methods.request('resources/unsubscribe', parseUnsubscribeParams, ({ params }) => {
    subscriptions.remove({
      ...(params.uri !== undefined ? { uri: params.uri } : {}),
      ...(params.subscriptionId !== undefined ? { id: params.subscriptionId } : {}),
    });
    return {};
  });
  return subscriptions;
}

/**
 * resources/list, resources/templates/list, resources/read (queued: it starts a provider;
 * `timeoutSecs`, else MCPBASH_DEFAULT_TOOL_TIMEOUT), subscriptions.
 */
export const resourcesModule: HandlerModule = {
  name: 'resources',
  minimalMode: { methodPrefix: 'resources/', label: 'Resources' },
  capabilities: (session) => ({
    // A stateless server cannot send resources/updated: no subscriptions (D208).
    resources: {
      ...(session.canNotify ? { subscribe: true } : {}),
      ...(session.features.listChanged ? { listChanged: true } : {}),
    },
    // MCP Apps views are resources: the extension only to a client that declared it (D170).
    ...(session.uiSupported ? { extensions: { [UI_EXTENSION_ID]: { mimeTypes: [UI_MIME_TYPE] } } } : {}),
  }),
  register(context) {
    const reader = new ResourceReader(context.registries, providerHost(context), context.config.maxUiResourceBytes);
    registerLists(context);
    context.methods.request(
      'resources/read',
      parseResourceParams,
      async ({ params, signal }): Promise<ReadResourceResult> => {
        const target = await reader.resolve(params);
        const timeoutSecs = params.timeoutSecs ?? context.config.defaultToolTimeoutSecs;
        const { contents } = await reader.read(target, { timeoutSecs, signal });
        return { contents: [contents] };
      },
      { queued: true, maxResponseBytes: context.config.resourceReadResponseBytes },
    );
    const subscriptions = registerSubscriptions(context, reader);
    return { onStop: () => subscriptions.stop() };
  },
};
