import { randomBytes } from 'node:crypto';
import { isVisibleToModel } from '../../project/ui/tool-ui-meta.js';
import { prepareToolCall, serverPolicyWording } from '../../runner/tool-call-checks.js';
import { executeToolCall } from '../../runner/tool-execution.js';
import { createToolRuntime, type ToolRuntime } from '../../runner/tool-runtime.js';
import { titlesSupported, toListedTool } from '../listed-items.js';
import { listPage } from '../pagination.js';
import { parseListParams } from '../params/list-params.js';
import { parseToolCallParams } from '../params/tool-params.js';
import { toolCallResponseCap } from '../response-caps.js';
import type { HandlerModule, ServerContext } from '../server-context.js';

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
        const prepared = await prepareToolCall(params.name, params.arguments, loadTools, toolRuntime());
        const { _meta: meta, progressToken, timeoutSecs } = params;
        const call = {
          meta,
          progressToken,
          signal,
          notify,
          ...(timeoutSecs !== undefined ? { timeoutSecs } : {}),
          // Its questions travel with the call (over HTTP: on the call's own stream).
          ...(context.elicitation ? { elicitation: context.elicitation.on(request) } : {}),
        };
        return executeToolCall(prepared, call, toolRuntime());
      },
      { queued: true, maxResponseBytes: toolCallResponseCap(config) },
    );
    // The spare call directories go with the session (a state dir may outlive it, D264).
    return { onStop: () => runtime?.callDirectories.close() };
  },
};
