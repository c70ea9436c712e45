import { JQ_SYSTEM_ERROR } from '../json/jq-invocation.js';
import { type JqEngine, loadJqEngine, locateJqWasm } from '../json/jq-wasm.js';
import { CliError } from './cli-error.js';

/** The built-in jq from the framework home, or a CliError saying how to get a jq. */
export function loadBuiltinJq(homeRoot: string, options: { oneShot?: boolean } = {}): Promise<JqEngine> {
  const files = locateJqWasm(homeRoot);
  if (!files) {
    throw new CliError(
      `the built-in jq is missing from ${homeRoot} (lib/jq-wasm)`,
      JQ_SYSTEM_ERROR,
      'Reinstall mcp-bash, or install jq or gojq.',
    );
  }
  return loadJqEngine(files, options);
}
