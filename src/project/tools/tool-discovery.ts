import { basename, dirname, extname, join, normalize, relative, sep } from 'node:path';
import type { JsonObject } from '../../spec/types.js';
import {
  dedupeByName,
  type FileEntry,
  filesOf,
  readHead,
  readMetadata,
  type TreeWalk,
  walkTree,
} from '../discovery-files.js';
import type { ScanResult } from '../registry/registry-store.js';
import { normalizeTool, type ToolDefinition } from './tool-definition.js';

/** Result of scanning tools/: the tools, plus the scripts D7 leaves out (for `validate`). */
export interface ToolScan extends ScanResult<ToolDefinition> {
  readonly helpers: readonly string[];
}

const HEADER_LINES = 10;
// Any line that starts like a header is one: what follows must be a JSON object, or it is
// reported (a typo must not leave a tool silently without its metadata).
const INLINE_HEADER = /^\s*#\s*mcp:(.*)$/;

/** What the server (and `validate`) say about a header that is not a JSON object. */
export const BAD_INLINE_HEADER = 'the "# mcp:" header is not a JSON object; ignored';

/** A file the server could run by its name or mode alone: executable, or `.sh`/`.bash`. */
function isScriptByNameOrMode(path: string, mode: number): boolean {
  return (mode & 0o111) !== 0 || path.endsWith('.sh') || path.endsWith('.bash');
}

/** jq's notion of a value `//` keeps: not absent, null, false or "" (1.x read fields with `.x // ""`). */
const given = (value: unknown) => value !== undefined && value !== null && value !== false && value !== '';

/**
 * Whether a tool's meta.json describes it by itself (decision D282): a name or a description,
 * as 1.x tested. Then the script's inline header is not read at all (1.x never looked at it),
 * so a stale header cannot change the tool, and a cold scan reads one file per tool, not two.
 */
export function metaDescribesTool(meta: JsonObject): boolean {
  return given(meta.name) || given(meta.description);
}

/** The `# mcp: {...}` header in the first 10 lines, or undefined (a bad one is a warning). */
export function inlineHeader(head: string, owner: string, warnings: string[]): JsonObject | undefined {
  for (const line of head.split('\n').slice(0, HEADER_LINES)) {
    const match = INLINE_HEADER.exec(line);
    if (!match) continue;
    try {
      const value: unknown = JSON.parse((match[1] as string).trim() || 'null');
      if (typeof value === 'object' && value !== null && !Array.isArray(value)) return value as JsonObject;
    } catch {
      // reported below
    }
    warnings.push(`${owner}: ${BAD_INLINE_HEADER}`);
    return undefined;
  }
  return undefined;
}

/**
 * One source's schema under its MCP name: 1.x's `arguments` becomes `inputSchema` (unless
 * the source has both), so that merging meta.json over the inline header (a meta.json with
 * neither name nor description, D282) lets meta.json's schema win whichever name either uses.
 */
function withSchemaAlias(source: JsonObject | undefined): JsonObject {
  if (!source) return {};
  const { arguments: legacy, ...rest } = source;
  return legacy !== undefined && rest.inputSchema === undefined ? { ...rest, inputSchema: legacy } : rest;
}

/** `<file>.meta.json` or `<stem>.meta.json` beside the script, among the files found. */
function metadataFileFor(path: string, found: ReadonlySet<string>): string | undefined {
  const beside = `${path}.meta.json`;
  if (found.has(beside)) return beside;
  // String slicing instead of path.join: the walk's paths are already normal, and this runs
  // for every file of a cold scan.
  const slash = path.lastIndexOf(sep);
  const name = path.slice(slash + 1);
  const dot = name.lastIndexOf('.');
  const stem = dot > 0 ? name.slice(0, dot) : name;
  const sibling = `${path.slice(0, slash + 1)}${stem}.meta.json`;
  return found.has(sibling) ? sibling : undefined;
}

/** The files under tools/ (or its `subtree`) that may be tools: not directly in tools/. */
function toolFiles(toolsDir: string, subtree: string, tree: TreeWalk | undefined): FileEntry[] {
  const files = filesOf(tree ?? walkTree(toolsDir), 1);
  if (subtree === '') return files;
  const prefix = join(toolsDir, ...subtree.split('/')) + sep;
  return files.filter((file) => file.path.startsWith(prefix));
}

/**
 * Scans tools/ (decision D7), or only its `subtree` (a tools-relative path). A tool is a
 * script with metadata - `<name>.meta.json`, `tool.meta.json` beside `tool.sh`, or an
 * inline `# mcp:` header in its first 10 lines - or the `tool.sh` of its directory. Other
 * scripts are helpers. Metadata: a meta.json that names or describes the tool is all there
 * is (D282, as 1.x); otherwise the inline header, with any meta.json keys over it; then
 * defaults (`tool.sh` is named after its directory). Invalid names or metadata skip the
 * tool with a warning; of two tools with one name the first (by path) wins.
 */
export function discoverTools(toolsDir: string, subtree = '', tree?: TreeWalk): ToolScan {
  // Files directly in tools/ are not tools: each tool lives in a directory of its own.
  const files = toolFiles(toolsDir, subtree, tree);
  const paths = new Set(files.map((file) => file.path));
  const warnings: string[] = [];
  const helpers: string[] = [];
  const found: ToolDefinition[] = [];
  // The walk's paths start with the normalized tools directory: slicing that prefix off gives
  // path.relative()'s answer without resolving two paths for each of thousands of files.
  const base = normalize(toolsDir);
  const prefix = base.endsWith(sep) ? base : base + sep;
  const toolsRelative = (path: string) =>
    (path.startsWith(prefix) ? path.slice(prefix.length) : relative(toolsDir, path)).split(sep).join('/');
  for (const { path, mode, size } of files) {
    const name = basename(path);
    if (name.endsWith('.meta.json') || name === 'smoke.sh') continue;
    const rel = toolsRelative(path);
    // The script's head is read only when something needs it: a shebang that makes it a
    // script, or an inline header when no meta.json describes the tool (D282).
    let head: string | undefined;
    const scriptHead = () => {
      head ??= readHead(path, 4096, size);
      return head;
    };
    const metaPath = metadataFileFor(path, paths);
    let inline: JsonObject | undefined;
    let meta: JsonObject | string = {};
    try {
      if (!isScriptByNameOrMode(path, mode) && !scriptHead().startsWith('#!')) continue;
      if (metaPath) meta = readMetadata(metaPath);
      if (typeof meta !== 'string' && !(metaPath && metaDescribesTool(meta)))
        inline = inlineHeader(scriptHead(), rel, warnings);
    } catch {
      // An unreadable script whose head was needed is no tool (as before D282).
      continue;
    }
    if (!metaPath && !inline && name !== 'tool.sh') {
      helpers.push(rel);
      continue;
    }
    if (typeof meta === 'string') {
      warnings.push(`${toolsRelative(metaPath as string)}: invalid metadata (${meta}); tool skipped`);
      continue;
    }
    const defaultName = name === 'tool.sh' ? basename(dirname(path)) : basename(name, extname(name));
    const normalized = normalizeTool(
      { ...withSchemaAlias(inline), ...withSchemaAlias(meta) },
      { defaultName, path: rel, iconBase: dirname(metaPath ?? path), owner: rel },
    );
    warnings.push(...normalized.warnings);
    if (normalized.error) warnings.push(`${normalized.error}; tool skipped`);
    if (normalized.tool) found.push(normalized.tool);
  }
  return { items: dedupeByName(found, 'tool', warnings, (tool) => tool.path), warnings, helpers };
}
