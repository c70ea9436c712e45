import { isUtf8 } from 'node:buffer';
import { closeSync, fstatSync, openSync, readSync, realpathSync } from 'node:fs';
import { join, sep } from 'node:path';
import type { JsonObject, ResourceContents } from '../../spec/types.js';
import { renderUiTemplate } from '../../ui-templates/index.js';
import { isTemplateName } from '../../ui-templates/template-names.js';
import { ProjectError } from '../project-error.js';
import type { ProjectLayout } from '../project-layout.js';
import { uiResourceDir } from './ui-discovery.js';
import { UI_MIME_TYPE, type UiResourceDefinition } from './ui-resource.js';

function tooLarge(item: UiResourceDefinition, size: number, limit: number): ProjectError {
  return ProjectError.failed(`UI resource exceeded MCPBASH_MAX_UI_RESOURCE_BYTES (${limit} bytes)`, {
    uri: item.uri,
    bytes: size,
    limit,
  });
}

function realpathOrUndefined(path: string): string | undefined {
  try {
    return realpathSync(path);
  } catch {
    return undefined;
  }
}

/**
 * The entrypoint's bytes: a regular file whose real path (symlinks resolved) stays inside
 * the UI directory, no larger than the cap. Undefined when the file does not exist.
 */
function readEntrypoint(item: UiResourceDefinition, dir: string, limit: number): Buffer | undefined {
  const realDir = realpathOrUndefined(dir);
  const real = realpathOrUndefined(join(dir, item.entrypoint));
  if (realDir === undefined || real === undefined) return undefined;
  if (!real.startsWith(`${realDir}${sep}`))
    throw ProjectError.failed('Resource outside allowed roots', {
      uri: item.uri,
      hint: `the entrypoint ${item.entrypoint} leaves its UI directory`,
    });
  const fd = openSync(real, 'r');
  try {
    const stat = fstatSync(fd);
    if (!stat.isFile()) throw ProjectError.failed(`UI entrypoint ${item.entrypoint} is not a file`, { uri: item.uri });
    if (stat.size > limit) throw tooLarge(item, stat.size, limit);
    // Read at most one byte past the cap: a file that grew since fstat still cannot pass it.
    const buffer = Buffer.alloc(Math.min(stat.size, limit) + 1);
    let length = 0;
    for (let read = 1; read > 0 && length < buffer.length; length += read) {
      read = readSync(fd, buffer, length, buffer.length - length, null);
    }
    if (length > limit) throw tooLarge(item, length, limit);
    return buffer.subarray(0, length);
  } finally {
    closeSync(fd);
  }
}

/** `_meta.ui` of the read result (MCP Apps `McpUiResourceMeta`). */
function uiMeta(item: UiResourceDefinition): JsonObject {
  return { ui: { ...item.ui } as unknown as JsonObject };
}

/**
 * A UI resource's `resources/read` contents, served in this process (original-behaviour
 * §6.7): the static entrypoint, else the HTML its template generates; MIME type
 * `text/html;profile=mcp-app`, `_meta.ui` with CSP, permissions and border preference.
 */
export function readUiResource(
  item: UiResourceDefinition,
  uri: string,
  layout: ProjectLayout,
  limit: number,
): { contents: ResourceContents; bytes: Buffer } {
  const dir = uiResourceDir(item, layout.toolsDir, layout.uiDir);
  let bytes = readEntrypoint(item, dir, limit);
  if (bytes === undefined && isTemplateName(item.template))
    bytes = Buffer.from(renderUiTemplate(item.template, item.config ?? {}));
  if (bytes === undefined)
    throw ProjectError.failed(`UI resource ${item.name} has no ${item.entrypoint} and no template`, { uri: item.uri });
  if (bytes.length > limit) throw tooLarge(item, bytes.length, limit);
  const body = isUtf8(bytes) ? { text: bytes.toString('utf8') } : { blob: bytes.toString('base64') };
  return { contents: { uri, mimeType: UI_MIME_TYPE, ...body, _meta: uiMeta(item) }, bytes };
}
