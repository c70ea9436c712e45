import { closeSync, readFileSync } from 'node:fs';
import { isAbsolute, resolve } from 'node:path';
import { classifyContent, fileUriFromPath } from '../content/mime.js';
import { type ConfinedRefusal, openInsideRoots } from '../fs/confined-open.js';
import type { RootEntry } from '../project/roots.js';
import type { EmbeddedResource } from '../spec/types.js';

interface ResourceRequest {
  readonly path: string;
  readonly mimeType?: string;
  readonly uri?: string;
}

function fromJson(text: string): ResourceRequest[] | undefined {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return undefined;
  }
  const list = Array.isArray(value) ? value : [value];
  const requests: ResourceRequest[] = [];
  for (const item of list) {
    if (typeof item === 'string') requests.push({ path: item });
    else if (typeof item === 'object' && item !== null && typeof (item as ResourceRequest).path === 'string') {
      const entry = item as Record<string, unknown>;
      requests.push({
        path: entry.path as string,
        ...(typeof entry.mimeType === 'string' && entry.mimeType !== '' ? { mimeType: entry.mimeType } : {}),
        ...(typeof entry.uri === 'string' && entry.uri !== '' ? { uri: entry.uri } : {}),
      });
    }
  }
  return requests;
}

/** Why a listed file is not attached, by refusal. */
const REFUSALS: Readonly<Record<ConfinedRefusal, string>> = {
  'not-found': 'not found or not readable',
  outside: 'outside the MCP roots',
  'not-regular': 'not a regular file',
  changed: 'it changed into a symbolic link while being opened',
};

/** `path<TAB>mime<TAB>uri` lines; mime and uri may be empty. */
function fromTsv(text: string): ResourceRequest[] {
  return text
    .split(/\r?\n/)
    .filter((line) => line.trim() !== '')
    .map((line) => {
      const [path = '', mimeType = '', uri = ''] = line.split('\t');
      return { path, ...(mimeType ? { mimeType } : {}), ...(uri ? { uri } : {}) };
    });
}

/** One listed file as embedded content, or why it is skipped. */
function readOne(
  request: ResourceRequest,
  roots: readonly RootEntry[],
  cwd: string,
  maxBytes: number,
): EmbeddedResource | string {
  const opened = openInsideRoots(
    isAbsolute(request.path) ? request.path : resolve(cwd, request.path),
    roots.map((root) => root.path),
  );
  if (typeof opened === 'string')
    return opened === 'outside' && roots.length === 0 ? 'no MCP roots are configured' : REFUSALS[opened];
  let bytes: Buffer;
  try {
    if (opened.stats.size > maxBytes) return `larger than ${maxBytes} bytes (MCPBASH_MAX_RESOURCE_BYTES)`;
    bytes = readFileSync(opened.fd);
  } catch {
    return 'not found or not readable';
  } finally {
    closeSync(opened.fd);
  }
  const { mimeType, binary } = classifyContent(bytes, request.mimeType, opened.path);
  const uri = request.uri ?? fileUriFromPath(opened.path);
  return {
    type: 'resource',
    resource: binary
      ? { uri, mimeType, blob: bytes.toString('base64') }
      : { uri, mimeType, text: bytes.toString('utf8') },
  };
}

/**
 * The resources a tool asked to attach through MCP_TOOL_RESOURCES_FILE (JSON or TSV), as
 * `{type:"resource"}` content. Each file must be readable and inside the current MCP roots
 * (with no roots, nothing is attached); binary content travels as base64 `blob`. Entries
 * that do not qualify are skipped with a warning.
 */
export function readEmbeddedResources(
  file: string,
  roots: readonly RootEntry[],
  cwd: string,
  maxBytes: number,
  warn: (message: string) => void,
): EmbeddedResource[] {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch {
    return [];
  }
  if (text.trim() === '') return [];
  const requests = fromJson(text) ?? fromTsv(text);
  const resources: EmbeddedResource[] = [];
  for (const request of requests) {
    const read = readOne(request, roots, cwd, maxBytes);
    if (typeof read === 'string') warn(`embedded resource ${request.path} skipped: ${read}`);
    else resources.push(read);
  }
  return resources;
}
