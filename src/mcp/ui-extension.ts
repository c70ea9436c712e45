import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { isObject } from '../json/objects.js';
import { UI_EXTENSION_ID, UI_MIME_TYPE } from '../project/ui/ui-resource.js';
import type { ClientCapabilities } from '../spec/types.js';

/** Where 1.x told tools about the client's UI support (`mcp_client_supports_ui` reads it). */
const UI_SUPPORT_FILE = 'extensions.ui.support';

/**
 * Whether the client renders MCP Apps views: it declared `extensions["io.modelcontextprotocol/ui"]`
 * and, when it lists `mimeTypes`, ours among them.
 */
export function clientSupportsUi(capabilities: ClientCapabilities): boolean {
  const extensions = capabilities.extensions;
  const ui = isObject(extensions) ? extensions[UI_EXTENSION_ID] : undefined;
  if (!isObject(ui)) return false;
  return !Array.isArray(ui.mimeTypes) || ui.mimeTypes.includes(UI_MIME_TYPE);
}

/** Writes `1` or `0` to `<stateDir>/extensions.ui.support`; a failure only loses the file. */
export function recordUiSupport(stateDir: string, supported: boolean, onError: (message: string) => void): void {
  try {
    writeFileSync(join(stateDir, UI_SUPPORT_FILE), supported ? '1' : '0');
  } catch (error) {
    onError(`cannot write ${UI_SUPPORT_FILE}: ${(error as Error).message}`);
  }
}
