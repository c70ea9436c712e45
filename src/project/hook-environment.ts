import type { FrameworkHome } from '../assets/framework-home.js';
import type { Env } from '../config/env-values.js';
import type { JsonToolChoice } from '../process/json-tool.js';
import { layoutEnvironment, type ProjectLayout } from './project-layout.js';

/**
 * The environment of a project hook (policy.sh, register.sh, health-checks.sh): the
 * server's, plus what 1.x's hooks found in the server they were sourced into - the project
 * paths, MCPBASH_HOME, MCP_SDK (where hook-helpers.sh lives) and the JSON tool.
 */
export function hookEnvironment(
  base: Env,
  layout: ProjectLayout,
  home: FrameworkHome,
  jsonTool: JsonToolChoice,
): NodeJS.ProcessEnv {
  return {
    ...base,
    ...layoutEnvironment(layout),
    MCPBASH_HOME: home.root,
    MCP_SDK: home.sdkDir,
    MCPBASH_JSON_TOOL: jsonTool.name,
    MCPBASH_JSON_TOOL_BIN: jsonTool.bin,
  };
}
