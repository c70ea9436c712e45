import type { JsonObject } from '../../spec/types.js';
import type { TemplateName } from '../../ui-templates/template-names.js';

/** The MCP Apps extension's identifier (SEP-1865), in capabilities.extensions. */
export const UI_EXTENSION_ID = 'io.modelcontextprotocol/ui';

/** The only UI content type MCP Apps defines: an HTML5 document for a sandboxed iframe. */
export const UI_MIME_TYPE = 'text/html;profile=mcp-app';

/** Where a UI resource's directory lives. */
export type UiSource = 'tool' | 'standalone';

/** CSP origins a view asks the host for (MCP Apps `McpUiResourceCsp`). */
export interface UiCsp {
  connectDomains: string[];
  resourceDomains: string[];
  frameDomains: string[];
  baseUriDomains: string[];
}

/** What `_meta.ui` of a UI resource carries (MCP Apps `McpUiResourceMeta`). */
export interface UiResourceMeta {
  csp: UiCsp;
  permissions: JsonObject;
  prefersBorder: boolean;
  domain?: string;
}

/** A UI resource as the registry keeps it (`.registry/ui-resources.json` items). */
export interface UiResourceDefinition {
  /** The directory's name: `tools/<name>/ui/` or `ui/<name>/`. */
  name: string;
  /** `ui://<server-name>/<name>` */
  uri: string;
  title?: string;
  description: string;
  source: UiSource;
  /** The HTML file, relative to the UI directory (1.x's `entrypoint`, default index.html). */
  entrypoint: string;
  /** A template generates the HTML when the entrypoint does not exist. */
  template?: TemplateName;
  config?: JsonObject;
  ui: UiResourceMeta;
}
