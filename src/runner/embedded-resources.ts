import { closeSync, readFileSync } from 'node:fs';
import { isAbsolute, resolve } from 'node:path';
import { classifyContent, fileUriFromPath } from '../content/mime.js';
import { type ConfinedRefusal, openInsideRoots } from '../fs/confined-open.js';
import type { RootEntry } from '../project/roots.js';
import type { EmbeddedResource, TextContent } from '../spec/types.js';

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

/** One listed file as embedded content (and its size), or why it is skipped. */
function readOne(
  request: ResourceRequest,
  options: AttachmentOptions,
  budget: number,
): { resource: EmbeddedResource; size: number } | string {
  const { roots, cwd, callDir, maxBytes } = options;
  // The call's own directory is always a place to attach from (D286): roots name the client's
  // directories, which a server elsewhere, or a tool writing into its project, may not be in.
  const opened = openInsideRoots(isAbsolute(request.path) ? request.path : resolve(cwd, request.path), [
    callDir,
    ...roots.map((root) => root.path),
  ]);
  if (typeof opened === 'string') {
    if (opened !== 'outside') return REFUSALS[opened];
    const where = roots.length === 0 ? 'no MCP roots are configured' : REFUSALS.outside;
    return `${where} (files in MCP_TOOL_CALL_DIR can always be attached)`;
  }
  let bytes: Buffer;
  try {
    if (opened.stats.size > maxBytes) return `larger than ${maxBytes} bytes (MCPBASH_MAX_RESOURCE_BYTES)`;
    if (opened.stats.size > budget) {
      return `the call's attachments would pass ${maxBytes} bytes in all (MCPBASH_MAX_RESOURCE_BYTES)`;
    }
    bytes = readFileSync(opened.fd);
  } catch {
    return 'not found or not readable';
  } finally {
    closeSync(opened.fd);
  }
  const { mimeType, binary } = classifyContent(bytes, request.mimeType, opened.path);
  const uri = request.uri ?? fileUriFromPath(opened.path);
  const resource = binary
    ? { uri, mimeType, blob: bytes.toString('base64') }
    : { uri, mimeType, text: bytes.toString('utf8') };
  return { resource: { type: 'resource', resource }, size: bytes.length };
}

/** Where a call's attachments may come from, and how much of them there may be. */
export interface AttachmentOptions {
  /** MCP_TOOL_RESOURCES_FILE: the list the tool wrote. */
  readonly file: string;
  readonly roots: readonly RootEntry[];
  /** Relative paths are resolved against it (the project root). */
  readonly cwd: string;
  /** The call's private directory (MCP_TOOL_CALL_DIR): always allowed. */
  readonly callDir: string;
  /** MCPBASH_MAX_RESOURCE_BYTES: for one file, and for all of a call's files together. */
  readonly maxBytes: number;
  readonly warn: (message: string) => void;
}

/**
 * The resources a tool asked to attach through MCP_TOOL_RESOURCES_FILE (JSON or TSV), as
 * `{type:"resource"}` content. Each file must be readable and inside the call's directory or
 * the current MCP roots, and all of them together within the cap; binary content travels as
 * base64 `blob`. An entry that does not qualify is a text block saying so, in its place (the
 * client sees what was left out, D286), and a warning.
 */
export function readEmbeddedResources(options: AttachmentOptions): Array<EmbeddedResource | TextContent> {
  let text: string;
  try {
    text = readFileSync(options.file, 'utf8');
  } catch {
    return [];
  }
  if (text.trim() === '') return [];
  const requests = fromJson(text) ?? fromTsv(text);
  const content: Array<EmbeddedResource | TextContent> = [];
  let budget = options.maxBytes;
  for (const request of requests) {
    const read = readOne(request, options, budget);
    if (typeof read === 'string') {
      options.warn(`embedded resource ${request.path} skipped: ${read}`);
      content.push({ type: 'text', text: `Attachment ${request.path} was left out: ${read}` });
    } else {
      budget -= read.size;
      content.push(read.resource);
    }
  }
  return content;
}
