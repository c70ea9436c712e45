/** `ui://<server-name>/<name>` (original-behaviour §6.7); each part percent-encoded. */
export function uiResourceUri(serverName: string, name: string): string {
  return `ui://${encodeURIComponent(serverName)}/${encodeURIComponent(name)}`;
}

export function isUiUri(uri: string): boolean {
  return uri.toLowerCase().startsWith('ui://');
}

/** A `ui://` URI taken apart: `ui://server/name` or 1.x's short `ui://name`. */
export type ParsedUiUri =
  | { readonly ok: true; readonly server?: string; readonly name: string }
  | { readonly ok: false; readonly reason: string };

function decode(part: string): string | undefined {
  try {
    return decodeURIComponent(part);
  } catch {
    return undefined;
  }
}

/** A name that is one directory entry: never `..`, a separator, or empty. */
function isPlainName(name: string): boolean {
  return name !== '' && name !== '.' && name !== '..' && !/[/\\\0]/.test(name);
}

/**
 * The server and resource name of a `ui://` URI. Anything that would walk out of a UI
 * directory (`..`, extra path segments, encoded separators) is refused.
 */
export function parseUiUri(uri: string): ParsedUiUri {
  const rest = uri.slice('ui://'.length).replace(/[?#].*$/, '');
  const parts = rest.split('/');
  if (parts.length > 2) return { ok: false, reason: 'a UI resource URI is ui://<server>/<name>: no further path' };
  const decoded = parts.map(decode);
  if (decoded.some((part) => part === undefined || !isPlainName(part)))
    return { ok: false, reason: 'the name must be one plain path segment (no "..", "/" or "\\")' };
  const [first, second] = decoded as string[];
  return second === undefined ? { ok: true, name: first as string } : { ok: true, server: first, name: second };
}
