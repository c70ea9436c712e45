import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Env } from '../config/env-values.js';
import { chooseJsonTool } from '../runner/json-tool.js';

/** The JSON processor tools would get, as CLI reports show it. */
export interface JsonToolInfo {
  /** MCPBASH_JSON_TOOL as tools see it: `gojq`, `jq` (also for the built-in one) or `none`. */
  readonly name: string;
  /** The installed binary, or null for the built-in jq and `none`. */
  readonly path: string | null;
  readonly builtin: boolean;
}

/** Asks the server's own choice (chooseJsonTool), in a throwaway directory for the built-in wrapper. */
export function jsonToolInfo(env: Env): JsonToolInfo {
  const scratch = mkdtempSync(join(tmpdir(), 'mcpbash-jsontool-'));
  try {
    const choice = chooseJsonTool(env, scratch);
    return { name: choice.name, path: choice.builtin || choice.name === 'none' ? null : choice.bin, builtin: choice.builtin };
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
}
