import { existsSync, readdirSync, statSync } from 'node:fs';
import { join, normalize, sep } from 'node:path';
import { byText, posixRelative, readMetadata, type TreeWalk } from '../discovery-files.js';
import type { ScanResult } from '../registry/registry-store.js';
import { normalizeUiMetadata } from './ui-metadata.js';
import type { UiResourceDefinition, UiSource } from './ui-resource.js';
import { uiResourceUri } from './ui-uri.js';

export const UI_META_FILE = 'ui.meta.json';

/** Where discovery looks, and the server name the URIs carry. */
export interface UiScanOptions {
  /** The project root (warnings name paths relative to it). */
  readonly root: string;
  readonly toolsDir: string;
  readonly uiDir: string;
  readonly serverName: string;
}

function isDirectory(path: string): boolean {
  try {
    return statSync(path).isDirectory();
  } catch {
    return false;
  }
}

/** The non-hidden sub-directories of `dir`, sorted (symlinks followed). */
function subdirectories(dir: string): string[] {
  let names: string[];
  try {
    names = readdirSync(dir);
  } catch {
    return [];
  }
  return names.filter((name) => !name.startsWith('.') && isDirectory(join(dir, name))).sort();
}

/** The UI directory of a tool directory: `tools/<tool>/ui/`. */
export function toolUiDir(toolsDir: string, toolDir: string): string {
  return join(toolsDir, toolDir, 'ui');
}

/**
 * One UI directory as a resource: it needs `index.html` or `ui.meta.json` (1.x's rule), and
 * something to serve - its entrypoint file, or a template. Otherwise undefined, with the
 * reason among the warnings.
 */
export function uiDirectoryResource(
  dir: string,
  name: string,
  source: UiSource,
  options: UiScanOptions & { readonly owner: string },
): { item?: UiResourceDefinition; warnings: string[] } {
  const metaPath = join(dir, UI_META_FILE);
  const hasMeta = existsSync(metaPath);
  if (!hasMeta && !existsSync(join(dir, 'index.html'))) return { warnings: [] };
  const raw = hasMeta ? readMetadata(metaPath) : {};
  if (typeof raw === 'string')
    return { warnings: [`${options.owner}/${UI_META_FILE}: invalid metadata (${raw}); UI resource skipped`] };
  const { fields, warnings } = normalizeUiMetadata(raw, name, `${options.owner}/${UI_META_FILE}`);
  if (!fields.template && !existsSync(join(dir, fields.entrypoint))) {
    warnings.push(`${options.owner}: neither ${fields.entrypoint} nor a template; UI resource skipped`);
    return { warnings };
  }
  return { item: { name, uri: uiResourceUri(options.serverName, name), source, ...fields }, warnings };
}

/**
 * The tool directories with a `ui/` directory, sorted: from a walk of tools/ when there is
 * one (no further system call), else by asking the disk about each tool directory.
 */
export function toolsWithUiDir(toolsDir: string, toolsWalk: TreeWalk | undefined): string[] {
  if (!toolsWalk) return subdirectories(toolsDir).filter((tool) => isDirectory(toolUiDir(toolsDir, tool)));
  const prefix = normalize(toolsDir + sep);
  const suffix = `${sep}ui`;
  const tools: string[] = [];
  for (const dir of toolsWalk.dirs) {
    if (!dir.startsWith(prefix) || !dir.endsWith(suffix)) continue;
    const tool = dir.slice(prefix.length, -suffix.length);
    if (tool !== '' && !tool.includes(sep)) tools.push(tool);
  }
  return tools.sort();
}

/** One UI directory: where it is, and what it would be called. */
export type UiDir = { readonly dir: string; readonly name: string; readonly source: UiSource };

/** The tools' UI directories (`tools/<tool>/ui/`), then the standalone ones (`ui/<name>/`), each sorted. */
export function uiDirectories(layout: Pick<UiScanOptions, 'toolsDir' | 'uiDir'>, toolsWalk?: TreeWalk): UiDir[] {
  const tools = toolsWithUiDir(layout.toolsDir, toolsWalk).map((name) => ({ name, source: 'tool' as const }));
  const standalone = subdirectories(layout.uiDir).map((name) => ({ name, source: 'standalone' as const }));
  return [...tools, ...standalone].map((ui) => ({ ...ui, dir: uiResourceDir(ui, layout.toolsDir, layout.uiDir) }));
}

/**
 * The project's UI resources (original-behaviour §6.7): `tools/<tool>/ui/` and standalone
 * `ui/<name>/`, named after their directory; a standalone one with a tool UI's name is
 * skipped with a warning. Sorted by name.
 */
export function scanUiResources(options: UiScanOptions, toolsWalk?: TreeWalk): ScanResult<UiResourceDefinition> {
  const warnings: string[] = [];
  const items: UiResourceDefinition[] = [];
  const toolUis = new Set<string>();
  for (const { dir, name, source } of uiDirectories(options, toolsWalk)) {
    const found = uiDirectoryResource(dir, name, source, { ...options, owner: posixRelative(options.root, dir) });
    warnings.push(...found.warnings);
    if (!found.item) continue;
    if (source === 'tool') toolUis.add(name);
    if (source === 'standalone' && toolUis.has(name))
      warnings.push(`ui/${name}: a tool UI already has the name "${name}"; skipped`);
    else items.push(found.item);
  }
  items.sort((a, b) => byText(a.name, b.name));
  return { items, warnings };
}

/** The directory a UI resource's files live in. */
export function uiResourceDir(item: Pick<UiResourceDefinition, 'name' | 'source'>, toolsDir: string, uiDir: string) {
  return item.source === 'tool' ? toolUiDir(toolsDir, item.name) : join(uiDir, item.name);
}
