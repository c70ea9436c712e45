import { randomBytes } from 'node:crypto';
import { VERSION } from '../../build-info.js';
import { asObject } from '../../json/objects.js';
import { RpcError } from '../../jsonrpc/rpc-error.js';
import { isVisibleToModel } from '../../project/ui/tool-ui-meta.js';
import { CallDirectoryPool } from '../../runner/call-directory.js';
import { prepareToolCall } from '../../runner/tool-call-checks.js';
import { executeToolCall } from '../../runner/tool-execution.js';
import type { ToolRuntime } from '../../runner/tool-runtime.js';
import { titlesSupported, toListedTool } from '../listed-items.js';
import { listResult, paginate } from '../pagination.js';
import type { HandlerModule, ServerContext } from '../server-context.js';
import type { JsonObject, ProgressToken } from '../types.js';

/** Only the fields MCP defines (decision D16); `title` for the versions that have it (D21). */
function progressTokenOf(meta: JsonObject): ProgressToken | undefined {
  const token = meta.progressToken;
  return typeof token === 'string' || (typeof token === 'number' && Number.isFinite(token)) ? token : undefined;
}

/** The tool runtime of a server session. */
export function serverToolRuntime(context: ServerContext): ToolRuntime {
  const { config, project, parts } = context;
  let calls = 0;
  const prefix = randomBytes(3).toString('hex');
  return {
    layout: project.layout,
    home: context.home,
    identity: project.identity,
    env: context.env,
    config,
    stateDir: context.stateDir,
    callDirectories: new CallDirectoryPool(context.stateDir),
    jsonTool: parts.jsonTool,
    jqService: () => parts.jqService(),
    processes: context.processes,
    validator: parts.validator,
    log: context.log,
    version: VERSION,
    implicitlyAllowed: project.gettingStarted ? ['getting_started'] : [],
    extraAllowed: [],
    context: 'server',
    roots: () => context.roots.current(),
    logLevel: () => context.log.level,
    isLogLevelEnabled: (level) => context.log.isEnabled(level),
    get elicitation() {
      return context.elicitation;
    },
    clientSupportsUi: () => context.session.uiSupported,
    onToolStderr: config.streamToolStderr ? (chunk) => context.stderr.write(chunk) : undefined,
    nextCallKey: () => {
      calls += 1;
      return `${prefix}-${calls}`;
    },
  };
}

/** tools/list (paginated) and tools/call (queued: it starts a process). */
export const toolsModule: HandlerModule = (context) => {
  const { engine, registries, session } = context;
  let runtime: ToolRuntime | undefined;
  const toolRuntime = () => (runtime ??= serverToolRuntime(context));

  engine.setRequestHandler('tools/list', async ({ params }) => {
    const snapshot = await registries.tools.snapshot();
    // App-only tools (MCP Apps visibility ["app"]) are for views: a client without them
    // would hand them to the model, which hosts that render views never do.
    const tools = session.uiSupported ? snapshot.items : snapshot.items.filter(isVisibleToModel);
    const page = paginate(tools, 'tools', snapshot.hash, asObject(params));
    const withTitle = titlesSupported(session.protocolVersion);
    return listResult('tools', { ...page, items: page.items.map((tool) => toListedTool(tool, withTitle)) });
  });

  engine.setRequestHandler(
    'tools/call',
    async (call) => {
      const { params, signal, notify } = call;
      const request = asObject(params);
      const prepared = await prepareToolCall(
        request.name,
        request.arguments,
        async () => (await registries.tools.snapshot()).items,
        toolRuntime(),
      );
      const meta = asObject(request._meta);
      const timeout = request.timeoutSecs;
      if (timeout !== undefined && (typeof timeout !== 'number' || !Number.isInteger(timeout) || timeout <= 0)) {
        throw RpcError.invalidParams('timeoutSecs must be a positive integer');
      }
      return executeToolCall(
        prepared,
        {
          meta,
          progressToken: progressTokenOf(meta),
          signal,
          ...(typeof timeout === 'number' ? { timeoutSecs: timeout } : {}),
          notify,
          // Its questions travel with the call (over HTTP: on the call's own stream).
          ...(context.elicitation ? { elicitation: context.elicitation.on(call) } : {}),
        },
        toolRuntime(),
      );
    },
    { queued: true },
  );
};
