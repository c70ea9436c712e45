import { extname } from 'node:path';

const BY_EXTENSION: Readonly<Record<string, string>> = {
  '.txt': 'text/plain',
  '.text': 'text/plain',
  '.log': 'text/plain',
  '.md': 'text/markdown',
  '.markdown': 'text/markdown',
  '.html': 'text/html',
  '.htm': 'text/html',
  '.css': 'text/css',
  '.csv': 'text/csv',
  '.tsv': 'text/tab-separated-values',
  '.json': 'application/json',
  '.jsonl': 'application/jsonl',
  '.ndjson': 'application/x-ndjson',
  '.xml': 'application/xml',
  '.yaml': 'application/yaml',
  '.yml': 'application/yaml',
  '.toml': 'application/toml',
  '.js': 'text/javascript',
  '.mjs': 'text/javascript',
  '.ts': 'text/plain',
  '.sh': 'text/x-shellscript',
  '.bash': 'text/x-shellscript',
  '.py': 'text/x-python',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.jpg': 'image/jpeg',
  '.jpeg': 'image/jpeg',
  '.gif': 'image/gif',
  '.webp': 'image/webp',
  '.ico': 'image/x-icon',
  '.bmp': 'image/bmp',
  '.pdf': 'application/pdf',
  '.zip': 'application/zip',
  '.gz': 'application/gzip',
  '.tgz': 'application/gzip',
  '.bz2': 'application/x-bzip2',
  '.xz': 'application/x-xz',
  '.tar': 'application/x-tar',
  '.mp3': 'audio/mpeg',
  '.wav': 'audio/wav',
  '.ogg': 'audio/ogg',
  '.mp4': 'video/mp4',
  '.webm': 'video/webm',
  '.wasm': 'application/wasm',
  '.bin': 'application/octet-stream',
};

/** A MIME type from a path's extension, or undefined when unknown. */
export function mimeFromPath(path: string): string | undefined {
  return BY_EXTENSION[extname(path).toLowerCase()];
}

const TEXT_APPLICATION = new RegExp(
  '^application\\/(json|[\\w.+-]*\\+json|jsonl|x-ndjson|xml|[\\w.+-]*\\+xml|yaml|x-yaml|toml|javascript|x-sh|' +
    'x-shellscript|sql|graphql|x-www-form-urlencoded)\\b',
);

/** Whether a MIME type names text (`text/*`, JSON, XML, YAML, SVG, scripts...). */
export function isTextMime(mime: string): boolean {
  const type = mime.toLowerCase();
  return type.startsWith('text/') || type.startsWith('image/svg') || TEXT_APPLICATION.test(type);
}

const strictUtf8 = new TextDecoder('utf-8', { fatal: true });

/** Content that cannot travel as `text`: a NUL byte early on, or not UTF-8. */
function looksBinary(bytes: Buffer): boolean {
  if (bytes.subarray(0, 1024).includes(0)) return true;
  try {
    strictUtf8.decode(bytes);
    return false;
  } catch {
    return true;
  }
}

/**
 * How content travels in MCP: as `text` when the MIME type is textual and the bytes are
 * UTF-8 without NULs, else as a base64 `blob`. Returns the MIME type to report too.
 */
export function classifyContent(
  bytes: Buffer,
  hint: string | undefined,
  path?: string,
): { mimeType: string; binary: boolean } {
  const declared = hint ?? (path ? mimeFromPath(path) : undefined);
  if (declared === undefined) {
    // The bytes decide the type too: one scan of them, not two.
    const binary = looksBinary(bytes);
    return { mimeType: binary ? 'application/octet-stream' : 'text/plain', binary };
  }
  return { mimeType: declared, binary: !isTextMime(declared) || looksBinary(bytes) };
}

/** `file://` + the percent-encoded absolute path (RFC 8089). */
export function fileUriFromPath(path: string): string {
  const posix = path.replace(/\\/g, '/');
  const withSlash = posix.startsWith('/') ? posix : `/${posix}`;
  return `file://${withSlash
    .split('/')
    .map((segment) => encodeURIComponent(segment).replace(/%3A/gi, ':'))
    .join('/')}`;
}
