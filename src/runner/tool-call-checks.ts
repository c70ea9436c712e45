import type { ToolDefinition } from '../project/tools/tool-definition.js';
import { RpcError } from '../spec/rpc-error.js';
import type { JsonObject } from '../spec/types.js';
import { closestMatch } from '../text/did-you-mean.js';
import { describeArgumentIssue } from '../validation/argument-words.js';
import type { SchemaCheck } from '../validation/json-schema.js';
import type { ToolEnvMode } from './tool-environment.js';
import { enforceToolPolicy, resolveToolScript } from './tool-policy.js';
import type { CheckRoles } from './tool-runtime.js';

/** A call that passed every check, ready to run. */
export interface PreparedToolCall {
  readonly tool: ToolDefinition;
  readonly scriptPath: string;
  readonly args: JsonObject;
  readonly envMode: ToolEnvMode;
}

/** Runtimes already warned that tools get the whole environment. */
const inheritWarned = new WeakSet<CheckRoles>();

/**
 * MCPBASH_TOOL_ENV_MODE; `inherit` needs MCPBASH_TOOL_ENV_INHERIT_ALLOW=true, and is
 * warned about once per server (as 1.x did): tools then see every secret the server has.
 */
function toolEnvMode(runtime: CheckRoles): ToolEnvMode {
  const { envMode: mode, inheritAllowed } = runtime.config.tools;
  if (mode === 'inherit') {
    if (!inheritAllowed) {
      throw RpcError.invalidParams(
        'MCPBASH_TOOL_ENV_MODE=inherit gives tools the whole server environment; set ' +
          'MCPBASH_TOOL_ENV_INHERIT_ALLOW=true to confirm, or use allowlist mode',
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
  return mode;
}

/**
 * The checks before a tool runs, in 1.x's order (original-behaviour §3.1), after the
 * request's name and arguments object (checked by the caller: tools/call's params parser,
 * run-tool's options): lookup, policy (policy.sh or the allowlist), script path safety,
 * environment mode; then, new in 2.x, the arguments against the tool's inputSchema.
 */
export async function prepareToolCall(
  name: string,
  args: JsonObject,
  loadTools: () => Promise<readonly ToolDefinition[]>,
  runtime: CheckRoles,
): Promise<PreparedToolCall> {
  const tools = await loadTools();
  const tool = tools.find((candidate) => candidate.name === name);
  if (!tool) {
    const closest = closestMatch(
      name,
      tools.map((candidate) => candidate.name),
    );
    throw RpcError.invalidParams(`Tool '${name}' not found`, {
      hint:
        `${closest === undefined ? '' : `Did you mean '${closest}'? `}tools/list shows the tools; ` +
        "'mcp-bash validate' lists them and says why a script is not one",
      ...(closest === undefined ? {} : { didYouMean: closest }),
    });
  }
  await enforceToolPolicy(name, tool, runtime);
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
  const uncompiled = uncompiledSchemaWarning(name, check);
  if (uncompiled) runtime.log.warning('mcp.tools', uncompiled);
  return { tool, scriptPath, args, envMode };
}

/**
 * The warning for a tool whose inputSchema does not compile (its arguments go unchecked),
 * given the result of checking anything against it; `validate` gives the same one.
 */
export function uncompiledSchemaWarning(name: string, check: SchemaCheck): string | undefined {
  return check.valid === 'unchecked'
    ? `${name}: inputSchema does not compile (${check.reason}); arguments not validated`
    : undefined;
}
