import { randomBytes } from 'node:crypto';
import { isObject } from '../../json/objects.js';
import { RawNumber } from '../../json/raw-number.js';
import type { JsonRpcParams } from '../../jsonrpc/messages.js';
import { isVisibleToModel } from '../../project/ui/tool-ui-meta.js';
import { InvalidArgumentsError, prepareToolCall, serverPolicyWording } from '../../runner/tool-call-checks.js';
import { executeToolCall } from '../../runner/tool-execution.js';
import { createToolRuntime, type ToolRuntime } from '../../runner/tool-runtime.js';
import type { CallToolParams, CallToolResult, JsonObject, ProgressToken } from '../../spec/types.js';
import { titlesSupported, toListedTool } from '../listed-items.js';
import { listPage, parseListParams } from '../pagination.js';
import { invalidParam, metaOf, paramsObject } from '../params-reader.js';
import type { HandlerModule, ServerContext } from '../server-context.js';

/** A `tools/call` as the runner takes it. */
interface ToolCallRequest extends CallToolParams {
  readonly arguments: JsonObject;
  readonly _meta: JsonObject;
  /** `_meta.progressToken` when it is one MCP allows (a string or a number, kept exact). */
  readonly progressToken: ProgressToken | RawNumber | undefined;
  /** `params.timeoutSecs` (an mcp-bash extension, decision D3): this call's timeout. */
  readonly timeoutSecs?: number;
}

function progressTokenOf(meta: JsonObject): ProgressToken | RawNumber | undefined {
  const token = meta.progressToken;
  if (typeof token === 'string' || token instanceof RawNumber) return token;
  return typeof token === 'number' && Number.isFinite(token) ? token : undefined;
}

/**
 * `params.timeoutSecs` in seconds: absent or null is no request timeout (1.x §3.5); a positive
 * integer, also written as digits in a string as tool metadata may (TOOL-CONTRACT.md).
 */
function requestTimeout(value: unknown): number | undefined {
  if (value === undefined || value === null) return undefined;
  const seconds = typeof value === 'string' && /^\d+$/.test(value) ? Number(value) : value;
  if (typeof seconds !== 'number' || !Number.isInteger(seconds) || seconds <= 0)
    throw invalidParam('timeoutSecs', 'timeoutSecs must be a positive integer');
  return seconds;
}

/**
 * `tools/call` (original-behaviour §3.1, steps 1 and 2): a name, arguments that are an
 * object (absent or null: `{}`), and a positive integer `timeoutSecs` when one is given.
 */
function parseToolCallParams(params: JsonRpcParams | undefined): ToolCallRequest {
  const request = paramsObject(params);
  const { name } = request;
  if (typeof name !== 'string' || name === '') throw invalidParam('name', 'Tool name is required');
  const args = request.arguments === undefined || request.arguments === null ? {} : request.arguments;
  if (!isObject(args))
    throw invalidParam('arguments', 'Invalid arguments JSON', { hint: 'arguments must be a JSON object' });
  const timeoutSecs = requestTimeout(request.timeoutSecs);
  const meta = metaOf(request);
  return {
    name,
    arguments: args,
    _meta: meta,
    progressToken: progressTokenOf(meta),
    ...(timeoutSecs === undefined ? {} : { timeoutSecs }),
  };
}

/** Arguments the tool's inputSchema refuses, as a result the model reads (2025-11-25, D292). */
function argumentErrorResult(error: InvalidArgumentsError): CallToolResult {
  return { isError: true, content: [{ type: 'text', text: error.message }] };
}

/** The tool runtime of a server session. */
function serverToolRuntime(context: ServerContext): ToolRuntime {
  const { config, project, parts } = context;
  return createToolRuntime({
    layout: project.layout,
    home: context.home,
    identity: project.identity,
    env: context.env,
    config,
    stateDir: context.stateDir,
    jsonTool: parts.jsonTool,
    jqService: () => parts.jqService(),
    processes: context.processes,
    validator: parts.validator,
    log: context.log,
    implicitlyAllowed: project.gettingStarted ? ['getting_started'] : [],
    policyWording: serverPolicyWording,
    client: {
      roots: () => context.roots.current(),
      attachmentRoots: () => context.roots.forServerReads(),
      clientSupportsUi: () => context.session.uiSupported,
    },
    onToolStderr: config.streamToolStderr ? (chunk) => context.stderr.write(chunk) : undefined,
    callKeyPrefix: randomBytes(3).toString('hex'),
  });
}

/** tools/list (paginated, within the registry cap) and tools/call (queued: it starts a process). */
export const toolsModule: HandlerModule = {
  name: 'tools',
  minimalMode: { methodPrefix: 'tools/', label: 'Tools' },
  capabilities: (session) => ({ tools: session.features.listChanged ? { listChanged: true } : {} }),
  register(context) {
    const { methods, registries, session, config } = context;
    let runtime: ToolRuntime | undefined;
    const toolRuntime = () => (runtime ??= serverToolRuntime(context));

    methods.request(
      'tools/list',
      parseListParams,
      async ({ params }) => {
        const snapshot = await registries.tools.snapshot();
        // App-only tools (MCP Apps visibility ["app"]) are for views: a client without them
        // would hand them to the model, which hosts that render views never do.
        const tools = session.uiSupported ? snapshot.items : snapshot.items.filter(isVisibleToModel);
        const withTitle = titlesSupported(session.protocolVersion);
        return listPage('tools', tools, snapshot.hash, params, (tool) => toListedTool(tool, withTitle));
      },
      { maxResponseBytes: config.registryMaxBytes },
    );

    methods.request(
      'tools/call',
      parseToolCallParams,
      async (request) => {
        const { params, signal, notify } = request;
        const loadTools = async () => (await registries.tools.snapshot()).items;
        const prepared = await prepareToolCall(params.name, params.arguments, loadTools, toolRuntime()).catch(
          (error: unknown) => {
            if (error instanceof InvalidArgumentsError && session.features.argumentErrorsAsResults) return error;
            throw error;
          },
        );
        if (prepared instanceof InvalidArgumentsError) return argumentErrorResult(prepared);
        const { _meta: meta, progressToken, timeoutSecs } = params;
        const call = {
          meta,
          progressToken,
          signal,
          notify,
          ...(timeoutSecs !== undefined ? { timeoutSecs } : {}),
          // Its questions travel with the call (over HTTP: on the call's own stream).
          ...(context.elicitation ? { elicitation: context.elicitation.on(request) } : {}),
          ...(context.sampling ? { sampling: context.sampling.on(request) } : {}),
        };
        return executeToolCall(prepared, call, toolRuntime());
      },
      { queued: true, maxResponseBytes: config.toolCallResponseBytes },
    );
    // The spare call directories go with the session (a state dir may outlive it, D264).
    return { onStop: () => runtime?.callDirectories.close() };
  },
};
