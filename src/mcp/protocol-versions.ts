import { UI_EXTENSION_ID, UI_MIME_TYPE } from '../project/ui/ui-resource.js';
import type { ServerCapabilities } from './types.js';

/** The MCP versions we speak, newest first; the first is the default. */
export const SUPPORTED_PROTOCOL_VERSIONS = ['2025-11-25', '2025-06-18', '2025-03-26', '2024-11-05'] as const;
export type ProtocolVersion = (typeof SUPPORTED_PROTOCOL_VERSIONS)[number];
export const DEFAULT_PROTOCOL_VERSION: ProtocolVersion = '2025-11-25';

export function isSupportedProtocolVersion(value: unknown): value is ProtocolVersion {
  return typeof value === 'string' && (SUPPORTED_PROTOCOL_VERSIONS as readonly string[]).includes(value);
}

/** What differs between the versions, as far as the server's behaviour is concerned. */
export interface ProtocolFeatures {
  /** `listChanged` capabilities and the list_changed notifications. */
  readonly listChanged: boolean;
  /** The `completions` capability. */
  readonly completions: boolean;
  /** `instructions` in the initialize result. */
  readonly instructions: boolean;
  /** JSON-RPC batches (2025-03-26 only; MCP dropped them in 2025-06-18). */
  readonly batches: boolean;
}

export function featuresOf(version: ProtocolVersion): ProtocolFeatures {
  const modern = version === '2025-11-25' || version === '2025-06-18';
  return {
    listChanged: modern,
    completions: modern,
    instructions: version !== '2024-11-05',
    batches: version === '2025-03-26',
  };
}

/**
 * Capabilities without what needs messages the client did not ask for (list_changed,
 * resource subscriptions): for sessions whose transport cannot deliver them.
 */
export function withoutNotifications(capabilities: ServerCapabilities): ServerCapabilities {
  const { tools, resources, prompts, ...rest } = capabilities;
  return {
    ...rest,
    ...(tools ? { tools: {} } : {}),
    ...(resources ? { resources: {} } : {}),
    ...(prompts ? { prompts: {} } : {}),
  };
}

/**
 * The capabilities we advertise for a version (original-behaviour §2.3); the MCP Apps
 * extension only to a client that declared it (`ui`), whatever the version.
 */
export function serverCapabilities(version: ProtocolVersion, minimal: boolean, ui = false): ServerCapabilities {
  if (minimal) return { logging: {} };
  const extensions = ui ? { extensions: { [UI_EXTENSION_ID]: { mimeTypes: [UI_MIME_TYPE] } } } : {};
  if (featuresOf(version).listChanged) {
    return {
      logging: {},
      tools: { listChanged: true },
      resources: { subscribe: true, listChanged: true },
      prompts: { listChanged: true },
      completions: {},
      ...extensions,
    };
  }
  return { logging: {}, tools: {}, resources: { subscribe: true }, prompts: {}, ...extensions };
}
