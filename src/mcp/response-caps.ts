import type { ServerConfig } from '../config/server-config.js';

/** JSON.stringify writes a control character as `\u00XX`: six bytes for one. */
const WORST_ESCAPE = 6;
/** The envelope around the parts: ids, member names, `_meta`, a validation note. */
const ENVELOPE_BYTES = 64 * 1024;

type Caps = Pick<ServerConfig, 'maxToolOutputBytes' | 'stderrTailBytes' | 'maxResourceBytes' | 'maxUiResourceBytes'>;

/**
 * The response cap of tools/call (D285): the largest answer a call can give when every part
 * is within its own cap, so such a result is always sent. MCPBASH_MAX_TOOL_OUTPUT_SIZE caps
 * what the tool printed; the answer carries it twice (the text and structuredContent), each
 * byte escaped at worst, with the stderr tail and the attachments (MCPBASH_MAX_RESOURCE_BYTES
 * in all, base64 or text).
 */
export function toolCallResponseCap(caps: Caps): number {
  return WORST_ESCAPE * (2 * caps.maxToolOutputBytes + caps.stderrTailBytes + caps.maxResourceBytes) + ENVELOPE_BYTES;
}

/** The response cap of resources/read (D285): a payload within its cap, escaped at worst, always fits. */
export function resourceReadResponseCap(caps: Caps): number {
  return WORST_ESCAPE * Math.max(caps.maxResourceBytes, caps.maxUiResourceBytes) + ENVELOPE_BYTES;
}
