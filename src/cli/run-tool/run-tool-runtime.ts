import type { Writable } from 'node:stream';
import type { FrameworkHome } from '../../assets/framework-home.js';
import type { Config } from '../../config/config.js';
import type { Env } from '../../config/env-values.js';
import { serverConfig } from '../../config/server-config.js';
import type { ServerLog } from '../../mcp/logging.js';
import { chooseJsonTool } from '../../process/json-tool.js';
import type { ProjectContext } from '../../project/project-context.js';
import type { RootEntry } from '../../project/roots.js';
import { createToolRuntime, type ToolRuntime } from '../../runner/tool-runtime.js';

/** What one run-tool call is made of. */
export interface RunToolRuntimeInput {
  readonly project: ProjectContext;
  readonly home: FrameworkHome;
  /** The launch environment (with sourced env files and --minimal applied), and its settings. */
  readonly env: Env;
  readonly config: Config;
  readonly stateDir: string;
  readonly log: ServerLog;
  readonly roots: readonly RootEntry[];
  /** --allow-self, --allow, --allow-all. */
  readonly extraAllowed: readonly string[];
  /** --verbose: the tool's stderr is copied here as it arrives. */
  readonly liveStderr: Writable | undefined;
}

/**
 * The ToolRuntime of one `run-tool`: the server's, minus the client. Elicitation is not
 * available (tools see MCP_ELICIT_SUPPORTED=0 and get `decline`), the roots are fixed, and
 * refusals suggest `--allow-self`.
 */
export function runToolRuntime(input: RunToolRuntimeInput): ToolRuntime {
  const config = serverConfig(input.config);
  const stderr = input.liveStderr;
  const roots = async () => input.roots;
  return createToolRuntime({
    layout: input.project.layout,
    home: input.home,
    identity: input.project.identity,
    env: input.env,
    config,
    stateDir: input.stateDir,
    // One call: starting a warm jq would cost more than the per-call `mcp-bash jq` it saves.
    jsonTool: chooseJsonTool(config.jsonTool, input.env, input.stateDir),
    log: input.log,
    extraAllowed: input.extraAllowed,
    policyWording: {
      denied: (toolName) =>
        `Tool '${toolName}' blocked by policy. Try: mcp-bash run-tool ${toolName} --allow-self ... (or --allow-all)`,
      hookContext: 'run-tool',
    },
    client: { roots, attachmentRoots: roots, clientSupportsUi: () => undefined },
    onToolStderr: stderr ? (chunk) => stderr.write(chunk) : undefined,
    callKeyPrefix: `run-tool-${process.pid}`,
  });
}
