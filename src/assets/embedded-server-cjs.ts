import { gunzipSync } from 'node:zlib';
import { serverCjsGzipBase64 } from 'virtual:server-cjs';

/**
 * The mcp-bash.cjs that build.mjs baked into this program (the same program without this
 * copy), for `bundle` and `vendor`; undefined in that inner build. Decoded only on demand.
 */
export function embeddedServerCjs(): Buffer | undefined {
  return serverCjsGzipBase64 === '' ? undefined : gunzipSync(Buffer.from(serverCjsGzipBase64, 'base64'));
}
