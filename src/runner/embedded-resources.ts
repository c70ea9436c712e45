import { accessSync, constants, readFileSync, realpathSync, statSync } from 'node:fs';
import { isAbsolute, resolve } from 'node:path';
import { classifyContent, fileUriFromPath } from '../content/mime.js';
import type { EmbeddedResource } from '../mcp/types.js';
import { isInsideRoots, type RootEntry } from '../project/roots.js';

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
    const skip = (why: string) => warn(`embedded resource ${request.path} skipped: ${why}`);
    let path: string;
    try {
      path = realpathSync(isAbsolute(request.path) ? request.path : resolve(cwd, request.path));
      accessSync(path, constants.R_OK);
    } catch {
      skip('not found or not readable');
      continue;
    }
    if (!statSync(path).isFile()) {
      skip('not a regular file');
      continue;
    }
    if (!isInsideRoots(path, roots)) {
      skip(roots.length === 0 ? 'no MCP roots are configured' : 'outside the MCP roots');
      continue;
    }
    if (statSync(path).size > maxBytes) {
      skip(`larger than ${maxBytes} bytes (MCPBASH_MAX_RESOURCE_BYTES)`);
      continue;
    }
    const bytes = readFileSync(path);
    const { mimeType, binary } = classifyContent(bytes, request.mimeType, path);
    const uri = request.uri ?? fileUriFromPath(path);
    resources.push({
      type: 'resource',
      resource: binary
        ? { uri, mimeType, blob: bytes.toString('base64') }
        : { uri, mimeType, text: bytes.toString('utf8') },
    });
  }
  return resources;
}
