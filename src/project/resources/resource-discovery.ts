import { existsSync, lstatSync, realpathSync } from 'node:fs';
import { basename, dirname, extname, join, sep } from 'node:path';
import { fileUriFromPath } from '../../content/mime.js';
import type { JsonObject } from '../../spec/types.js';
import { byText, dedupeByName, listFiles, posixRelative, readHeadOrEmpty, readMetadata } from '../discovery-files.js';
import { inlineHeader } from '../tools/tool-discovery.js';
import {
  normalizeResource,
  normalizeTemplate,
  type ResourceDefinition,
  type ResourceTemplateDefinition,
} from './resource-definition.js';

/** What one walk of resources/ finds; each kind's warnings are logged by its own registry. */
export interface ResourceScan {
  readonly resources: ResourceDefinition[];
  readonly resourceWarnings: string[];
  readonly templates: ResourceTemplateDefinition[];
  readonly templateWarnings: string[];
}

const META_SUFFIX = '.meta.json';

/** What 1.x listed when neither the metadata nor the extension gives a type (original-behaviour §5.3). */
const DEFAULT_MIME_TYPE = 'text/plain';

/** Completion scripts live next to the files they complete; they are not resources. */
function isCompletionScript(name: string): boolean {
  return name.endsWith('.completion.sh') || name.endsWith('.completion');
}

/** `<file>.meta.json` or `<stem>.meta.json` beside a content file. */
function metadataFileFor(path: string): string | undefined {
  const stem = basename(path, extname(path));
  return [`${path}${META_SUFFIX}`, join(dirname(path), `${stem}${META_SUFFIX}`)].find((candidate) =>
    existsSync(candidate),
  );
}

class Scan {
  readonly resources: ResourceDefinition[] = [];
  readonly resourceWarnings: string[] = [];
  readonly templates: ResourceTemplateDefinition[] = [];
  readonly templateWarnings: string[] = [];
  readonly usedMetadata = new Set<string>();
  /** Symbolic links inside resources/ that would be served by their own file:// URI. */
  readonly links: string[] = [];
  /** Files whose path below resources/ holds a backslash, which no file:// URI can name. */
  readonly backslashed: string[] = [];

  constructor(readonly dir: string) {}

  addTemplate(meta: JsonObject, metaPath: string): void {
    const normalized = normalizeTemplate(meta, {
      iconBase: dirname(metaPath),
      owner: posixRelative(this.dir, metaPath),
    });
    this.templateWarnings.push(...normalized.warnings);
    if (normalized.error) this.templateWarnings.push(normalized.error);
    if (normalized.item) this.templates.push(normalized.item);
  }

  /** A discovered resource whose type cannot be inferred is `text/plain`, 1.x's default. */
  addResource(meta: JsonObject, context: Parameters<typeof normalizeResource>[1]): void {
    const normalized = normalizeResource(meta, context);
    this.resourceWarnings.push(...normalized.warnings);
    if (normalized.error) this.resourceWarnings.push(normalized.error);
    if (normalized.item)
      this.resources.push({ ...normalized.item, mimeType: normalized.item.mimeType ?? DEFAULT_MIME_TYPE });
  }

  /** A content file: a resource, unless its metadata defines a template. */
  contentFile(path: string): void {
    const rel = posixRelative(this.dir, path);
    const metaPath = metadataFileFor(path);
    let meta: JsonObject = {};
    if (metaPath) {
      this.usedMetadata.add(metaPath);
      const parsed = readMetadata(metaPath);
      if (typeof parsed === 'string') {
        this.resourceWarnings.push(
          `${posixRelative(this.dir, metaPath)}: invalid metadata (${parsed}); resource skipped`,
        );
        return;
      }
      meta = parsed;
    }
    if (typeof meta.uriTemplate === 'string' && meta.uri === undefined) {
      this.addTemplate(meta, metaPath as string);
      return;
    }
    const inline = meta.uri === undefined ? inlineHeader(readHeadOrEmpty(path), rel, this.resourceWarnings) : undefined;
    // The file provider never reads through a symbolic link (exit 2, D99): a link served by
    // its own file:// URI would be listed only to fail every read (D280).
    let defaultSize: number | undefined;
    if ((meta.uri ?? inline?.uri) === undefined) {
      const stat = lstatSync(path, { throwIfNoEntry: false });
      defaultSize = stat?.size;
      if (stat?.isSymbolicLink()) {
        this.links.push(rel);
        return;
      }
      // A file URI's backslash is a separator (Windows paths, file.sh): the URI of `a\b.txt`
      // would name `a/b.txt`, another file or none.
      if (sep === '/' && rel.includes('\\')) {
        this.backslashed.push(rel);
        return;
      }
    }
    this.addResource(
      { ...inline, ...meta },
      {
        defaultName: basename(path, extname(path)),
        path: rel,
        defaultUri: fileUriFromPath(path),
        ...(defaultSize === undefined ? {} : { defaultSize }),
        iconBase: dirname(metaPath ?? path),
        owner: rel,
      },
    );
  }

  /** A metadata file of its own: a template (`uriTemplate`) or a resource served by a provider (`uri`). */
  standaloneMetadata(metaPath: string): void {
    const owner = posixRelative(this.dir, metaPath);
    const meta = readMetadata(metaPath);
    if (typeof meta === 'string') {
      this.resourceWarnings.push(`${owner}: invalid metadata (${meta}); skipped`);
      return;
    }
    if (meta.uriTemplate !== undefined && meta.uri === undefined) this.addTemplate(meta, metaPath);
    else if (meta.uri !== undefined) this.addResource(meta, { iconBase: dirname(metaPath), owner });
    else
      this.resourceWarnings.push(`${owner}: defines neither "uri" nor "uriTemplate" and has no content file; skipped`);
  }
}

/**
 * Walks resources/ (original-behaviour §5.3-5.4): every non-hidden file is a resource
 * (metadata from `<file>.meta.json` / `<stem>.meta.json`, else an inline `# mcp:` header,
 * else defaults: the stem as name, its `file://` URI); a metadata file with `uriTemplate`
 * is a template; one with `uri` and no content file is a resource served by its provider.
 */
export function scanResources(resourcesDir: string): ResourceScan {
  const scan = new Scan(resourcesDir);
  const files = filesWithin(resourcesDir, scan.resourceWarnings);
  for (const path of files) {
    const name = basename(path);
    if (!name.endsWith(META_SUFFIX) && !isCompletionScript(name)) scan.contentFile(path);
  }
  for (const path of files) {
    if (basename(path).endsWith(META_SUFFIX) && !scan.usedMetadata.has(path)) scan.standaloneMetadata(path);
  }
  if (scan.links.length > 0) {
    const hint = 'the file provider does not read through a link to a file; copy the file, or link its directory';
    scan.resourceWarnings.push(notListedWarning(scan.links, 'are symbolic links', hint));
  }
  if (scan.backslashed.length > 0) {
    const hint = 'a file URI reads a backslash as a directory separator; rename them';
    scan.resourceWarnings.push(notListedWarning(scan.backslashed, 'have a backslash in their path', hint));
  }
  return scan;
}

function realpathOrUndefined(path: string): string | undefined {
  try {
    return realpathSync(path);
  } catch {
    return undefined;
  }
}

/**
 * The files of resources/ whose real path (symlinks resolved) stays inside it. The file
 * provider refuses the others, so listing them would only offer reads that always fail;
 * one warning names how many were left out.
 */
function filesWithin(resourcesDir: string, warnings: string[]): string[] {
  const files = listFiles(resourcesDir);
  const root = realpathOrUndefined(resourcesDir);
  if (root === undefined) return files;
  const outside: string[] = [];
  const inside = files.filter((path) => {
    const real = realpathOrUndefined(path);
    const within = real !== undefined && (real === root || real.startsWith(`${root}${sep}`));
    if (!within) outside.push(posixRelative(resourcesDir, path));
    return within;
  });
  if (outside.length > 0) {
    warnings.push(notListedWarning(outside, 'reached through symbolic links lie outside the resources directory'));
  }
  return inside;
}

/** One warning for the files left out for one reason: how many, and the first three. */
function notListedWarning(paths: readonly string[], reason: string, hint?: string): string {
  const example = paths.slice(0, 3).join(', ');
  const warning = `${paths.length} file(s) ${reason} and are not listed (${example}${paths.length > 3 ? ', ...' : ''})`;
  return hint === undefined ? warning : `${warning}: ${hint}`;
}

/**
 * Sorted by name (then path); of several resources with one name the first is kept and the
 * others are dropped with a warning, as for tools (the name is what `resources/read
 * {name}` and completions look resources up by).
 */
export function dedupeResources(items: ResourceDefinition[], warnings: string[]): ResourceDefinition[] {
  return dedupeByName(items, 'resource', warnings, (item) => item.path ?? item.uri);
}

/**
 * The template list: manual templates override discovered ones of the same name; a name
 * a resource already uses is dropped with a warning; sorted by name.
 */
export function assembleTemplates(
  discovered: ResourceTemplateDefinition[],
  manual: ResourceTemplateDefinition[],
  resourceNames: ReadonlySet<string>,
  warnings: string[],
): ResourceTemplateDefinition[] {
  const byName = new Map<string, ResourceTemplateDefinition>();
  const manualNames = new Set<string>();
  for (const template of discovered) {
    if (byName.has(template.name))
      warnings.push(`resource template name "${template.name}" is defined twice; the first is kept`);
    else byName.set(template.name, template);
  }
  // Within the manual list the first of a name is kept too, as in the discovered one.
  for (const template of manual) {
    if (manualNames.has(template.name)) {
      warnings.push(`manual resource template name "${template.name}" is registered twice; the first is kept`);
      continue;
    }
    manualNames.add(template.name);
    byName.set(template.name, template);
  }
  return [...byName.values()]
    .filter((template) => {
      if (!resourceNames.has(template.name)) return true;
      warnings.push(`resource template "${template.name}" has the name of a resource; skipped`);
      return false;
    })
    .sort((a, b) => byText(a.name, b.name));
}
