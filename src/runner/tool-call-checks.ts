import { join } from 'node:path';
import { envBool, envList, envString } from '../config/env-values.js';
import { isObject } from '../json/objects.js';
import { RpcError } from '../jsonrpc/rpc-error.js';
import type { JsonObject } from '../mcp/types.js';
import type { ToolDefinition } from '../project/tools/tool-definition.js';
import { describeArgumentIssue } from '../validation/argument-words.js';
import { hookEnvironment } from './hook-environment.js';
import type { ToolEnvMode } from './tool-environment.js';
import { enforceToolPolicy, resolveToolScript } from './tool-policy.js';
import type { ToolRuntime } from './tool-runtime.js';

/** A call that passed every check, ready to run. */
export interface PreparedToolCall {
  readonly tool: ToolDefinition;
  readonly scriptPath: string;
  readonly args: JsonObject;
  readonly envMode: ToolEnvMode;
}

/** Runtimes already warned that tools get the whole environment. */
const inheritWarned = new WeakSet<ToolRuntime>();

/**
 * MCPBASH_TOOL_ENV_MODE; `inherit` needs MCPBASH_TOOL_ENV_INHERIT_ALLOW=true, and is
 * warned about once per server (as 1.x did): tools then see every secret the server has.
 */
export function toolEnvMode(runtime: ToolRuntime): ToolEnvMode {
  const mode = (envString(runtime.env, 'MCPBASH_TOOL_ENV_MODE') ?? 'minimal').toLowerCase();
  if (mode === 'inherit') {
    if (!envBool(runtime.env, 'MCPBASH_TOOL_ENV_INHERIT_ALLOW', false)) {
      throw RpcError.invalidParams(
        'MCPBASH_TOOL_ENV_MODE=inherit gives tools the whole server environment; set MCPBASH_TOOL_ENV_INHERIT_ALLOW=true to confirm, or use allowlist mode',
      );
    }
    if (!inheritWarned.has(runtime)) {
      inheritWarned.add(runtime);
      runtime.log.warning(
        'mcp.tools',
        'MCPBASH_TOOL_ENV_MODE=inherit: tools receive the full server environment, secrets included',
      );
    }
    return 'inherit';
  }
  return mode === 'allowlist' ? 'allowlist' : 'minimal';
}

/**
 * The checks before a tool runs, in 1.x's order (original-behaviour §3.1): name,
 * arguments, lookup, policy (policy.sh or the allowlist), script path safety, environment
 * mode; then, new in 2.x, the arguments against the tool's inputSchema.
 */
export async function prepareToolCall(
  name: unknown,
  rawArguments: unknown,
  loadTools: () => Promise<readonly ToolDefinition[]>,
  runtime: ToolRuntime,
): Promise<PreparedToolCall> {
  if (typeof name !== 'string' || name === '') throw RpcError.invalidParams('Tool name is required');
  const args = rawArguments === undefined || rawArguments === null ? {} : rawArguments;
  if (!isObject(args)) throw RpcError.invalidParams('Invalid arguments JSON', 'arguments must be a JSON object');
  const tool = (await loadTools()).find((candidate) => candidate.name === name);
  if (!tool) {
    throw RpcError.invalidParams(`Tool '${name}' not found`, {
      hint: "tools/list (or 'mcp-bash registry refresh') shows the tools; 'mcp-bash validate' says why a script is not one",
    });
  }
  await enforceToolPolicy(name, tool, {
    allowlist: [...envList(runtime.env, 'MCPBASH_TOOL_ALLOWLIST'), ...runtime.extraAllowed],
    allowWhenEmpty: ['allow', 'all'].includes(
      (envString(runtime.env, 'MCPBASH_TOOL_ALLOW_DEFAULT') ?? '').toLowerCase(),
    ),
    implicitlyAllowed: runtime.implicitlyAllowed,
    policyFile: join(runtime.layout.serverDir, 'policy.sh'),
    policyDriver: join(runtime.home.hooksDir, 'policy-check.sh'),
    env: () => hookEnvironment(runtime.env, runtime.layout, runtime.home, runtime.jsonTool),
    log: runtime.log,
    projectRoot: runtime.layout.root,
    cwd: runtime.layout.root,
    scratchDir: runtime.stateDir,
    context: runtime.context,
  });
  const scriptPath = resolveToolScript(runtime.layout.toolsDir, tool.path, name);
  const envMode = toolEnvMode(runtime);
  const check = runtime.validator.check(tool.inputSchema, args);
  if (check.valid === false) {
    const problems = check.issues.map(describeArgumentIssue);
    throw RpcError.invalidParams(
      `Invalid arguments for tool '${name}': ${problems.map((problem) => problem.message).join('; ')}`,
      { errors: problems },
    );
  }
  if (check.valid === 'unchecked')
    runtime.log.warning(
      'mcp.tools',
      `${name}: inputSchema does not compile (${check.reason}); arguments not validated`,
    );
  return { tool, scriptPath, args, envMode };
}
