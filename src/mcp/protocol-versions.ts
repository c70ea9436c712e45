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
  /** Arguments that fail a tool's inputSchema are a tool result, not -32602 (SEP-1303, D292). */
  readonly argumentErrorsAsResults: boolean;
  /** Elicitation modes: `mode` in `elicitation/create`, URL elicitation and -32042 (D296). */
  readonly elicitationModes: boolean;
}

export function featuresOf(version: ProtocolVersion): ProtocolFeatures {
  const modern = version === '2025-11-25' || version === '2025-06-18';
  return {
    listChanged: modern,
    completions: modern,
    instructions: version !== '2024-11-05',
    batches: version === '2025-03-26',
    argumentErrorsAsResults: version === '2025-11-25',
    elicitationModes: version === '2025-11-25',
  };
}
