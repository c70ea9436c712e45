import type { Env } from '../config/env-values.js';
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
export function jsonToolInfo(env: Env): JsonToolInfo {
  const choice = pickJsonTool(env);
  return {
    name: choice.name,
    path: choice.builtin || choice.name === 'none' ? null : choice.bin,
    builtin: choice.builtin,
  };
}
