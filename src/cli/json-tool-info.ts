import type { Config } from '../config/config.js';
import type { Env } from '../config/env-values.js';
import { jsonToolConfig } from '../config/slices.js';
import { pickJsonTool } from '../process/json-tool.js';

/** The JSON processor tools would get, as CLI reports show it. */
export interface JsonToolInfo {
  /** MCPBASH_JSON_TOOL as tools see it: `gojq`, `jq` (also for the built-in one) or `none`. */
  readonly name: string;
  /** The installed binary, or null for the built-in jq and `none`. */
  readonly path: string | null;
  readonly builtin: boolean;
}

/** The server's own choice (pickJsonTool), as reports show it. */
export function jsonToolInfo(config: Config, env: Env): JsonToolInfo {
  const choice = pickJsonTool(jsonToolConfig(config.values), env);
  return {
    name: choice.name,
    path: choice.builtin || choice.name === 'none' ? null : choice.bin,
    builtin: choice.builtin,
  };
}
