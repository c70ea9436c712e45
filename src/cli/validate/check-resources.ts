import { existsSync, lstatSync, readdirSync, realpathSync } from 'node:fs';
import { basename, extname, join, relative, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { FrameworkHome } from '../../assets/framework-home.js';
import type { Config } from '../../config/config.js';
import { providerConfig } from '../../config/slices.js';
import { listFiles } from '../../project/discovery-files.js';
import type { ProjectLayout } from '../../project/project-layout.js';
import { canonicalRoot, configuredRoots, implicitRoot, isInsideRoots } from '../../project/roots.js';
import { resourceRoots } from '../../providers/provider-environment.js';
import { resourceMeta } from '../../schemas/meta-files.js';
import { describedFile, META_SUFFIX, metaFiles, metaStem } from './project-files.js';
import { checkLineEndings } from './script-checks.js';
import { type CheckContext, checkSchema, readJsonObject } from './validation-report.js';

const SCHEME = /^[A-Za-z][A-Za-z0-9+.-]*:/;

function providerNames(dir: string): string[] {
  try {
    return readdirSync(dir)
      .filter((file) => file.endsWith('.sh'))
      .map((file) => file.slice(0, -3));
  } catch {
    return [];
  }
}

/** The provider 1.x infers from a URI's scheme. */
function providerForUri(uri: string): string {
  if (uri.startsWith('git+https://')) return 'git';
  return SCHEME.test(uri) ? (uri.split(':')[0] as string) : 'file';
}

/** The file a file:// URI names: absolute (percent-decoded), or `file://./x` relative to the project root. */
function fileUriPath(uri: string, root: string): string | undefined {
  if (/^file:\/\/\.\.?\//.test(uri)) {
    try {
      return resolve(root, decodeURIComponent(uri.slice('file://'.length)));
    } catch {
      return undefined;
    }
  }
  try {
    return fileURLToPath(uri);
  } catch {
    return undefined;
  }
}

/**
 * The directories the file provider serves without help from a client's roots:
 * MCP_RESOURCES_ROOTS, else the resources directory and the configured roots (D54).
 */
function servedDirectories(layout: ProjectLayout, config: Config): string[] {
  const configured = configuredRoots(layout, config.values.MCPBASH_ROOTS, () => {})?.map((root) => root.path) ?? [];
  return resourceRoots(providerConfig(config.values), layout, configured).map((dir) => canonicalRoot(dir) ?? dir);
}

/** A file:// URI must name a file the provider will serve: it exists, inside the served directories. */
function checkFileUri(ctx: FileUriContext, meta: string, uri: string): void {
  const path = fileUriPath(uri, ctx.layout.root);
  if (!path) return;
  const real = canonicalRoot(path);
  if (!real) {
    ctx.report.warning('resources', `${path} does not exist`, { file: meta, field: '/uri' });
    return;
  }
  if (ctx.servedDirectories().some((dir) => dir === '/' || real === dir || real.startsWith(`${dir}/`))) return;
  const outside = !isInsideRoots(real, [implicitRoot(ctx.layout)]);
  ctx.report.warning(
    'resources',
    `${uri} is ${outside ? 'outside the project' : 'outside resources/'}: reads fail with "outside allowed ` +
      `roots" unless MCP_RESOURCES_ROOTS, MCPBASH_ROOTS, config/roots.json or the client's roots include ` +
      real +
      (outside ? ' (a copied or moved project keeps the old absolute path: drop "uri" to use the file\'s own)' : ''),
    { file: meta, field: '/uri' },
  );
}

/** annotations.audience: MCP knows "user" and "assistant"; the server drops the rest (D127). */
function checkAudience(ctx: CheckContext, meta: string, annotations: unknown): void {
  const audience = (annotations as { audience?: unknown } | undefined)?.audience;
  if (!Array.isArray(audience)) return;
  const other = audience.filter((role) => role !== 'user' && role !== 'assistant');
  if (other.length > 0)
    ctx.report.warning(
      'resources',
      `annotations.audience ${other.map((role) => JSON.stringify(role)).join(', ')} dropped: MCP knows only ` +
        `"user" and "assistant"`,
      { file: meta, field: '/annotations/audience' },
    );
}

interface FileUriContext extends CheckContext {
  readonly layout: ProjectLayout;
  /** servedDirectories(), worked out on the first file:// URI and kept for the rest. */
  readonly servedDirectories: () => readonly string[];
}

/** uri or uriTemplate as discovery reads them; returns whether the entry is served. */
function checkUri(
  ctx: FileUriContext,
  meta: string,
  value: Record<string, unknown>,
  content: string | undefined,
  providers: readonly string[],
): boolean {
  const { uri, uriTemplate } = value;
  if (uri !== undefined && uriTemplate !== undefined) {
    ctx.report.error('resources', 'has both "uri" (a resource) and "uriTemplate" (a template): keep one', {
      file: meta,
    });
    return false;
  }
  if (typeof uriTemplate === 'string') {
    if (/\{[^}]+\}/.test(uriTemplate)) return true;
    ctx.report.error('resources', 'uriTemplate has no {variable}', { file: meta, field: '/uriTemplate' });
    return false;
  }
  if (typeof uri !== 'string') {
    if (content) return true;
    ctx.report.error('resources', 'defines neither "uri" nor "uriTemplate" and no content file is beside it', {
      file: meta,
    });
    return false;
  }
  if (!SCHEME.test(uri))
    ctx.report.warning('resources', `uri "${uri}" has no scheme (e.g. file://)`, { file: meta, field: '/uri' });
  if (uri.startsWith('file://')) checkFileUri(ctx, meta, uri);
  const provider = typeof value.provider === 'string' ? value.provider : providerForUri(uri);
  if (providers.includes(provider)) return true;
  ctx.report.error(
    'resources',
    `no provider "${provider}" (built in: ${providers.join(', ')}; or add providers/${provider}.sh)`,
    { file: meta, field: '/provider' },
  );
  return false;
}

/**
 * Why the server leaves a content file without a uri of its own (no metadata, or metadata
 * without `uri`) out of resources/list (resource-discovery.ts):
 * its real path leaves resources/ (D58), it is a link to a file (D280), or its path holds a
 * backslash (D281); undefined when it is listed.
 */
function whyNotListed(file: string, resourcesDir: string): string | undefined {
  let real: string;
  let root: string;
  try {
    real = realpathSync(file);
    root = realpathSync(resourcesDir);
  } catch {
    return undefined;
  }
  if (real !== root && !real.startsWith(`${root}${sep}`))
    return 'reached through a symbolic link, it lies outside resources/';
  if (lstatSync(file).isSymbolicLink())
    return (
      'a symbolic link to a file, which the file provider does not read through ' +
      '(copy the file, or link its directory)'
    );
  if (sep === '/' && relative(resourcesDir, file).includes('\\'))
    return 'a backslash in its path, which a file:// URI reads as a directory separator (rename it)';
  return undefined;
}

/**
 * The project's provider scripts (line endings), then resources/: every metadata file
 * (JSON, schema, uri or uriTemplate, the provider it needs,
 * a missing file:// target), and duplicate names - counting the files without metadata,
 * which are resources too (named after their stem).
 */
export function checkResources(check: CheckContext, layout: ProjectLayout, home: FrameworkHome, config: Config): void {
  for (const name of providerNames(layout.providersDir))
    checkLineEndings(check, 'resources', join(layout.providersDir, `${name}.sh`));
  if (!existsSync(layout.resourcesDir)) return;
  let served: readonly string[] | undefined;
  const ctx: FileUriContext = {
    ...check,
    layout,
    servedDirectories: () => {
      served ??= servedDirectories(layout, config);
      return served;
    },
  };
  const providers = [
    ...new Set(['file', ...providerNames(home.providersDir), ...providerNames(layout.providersDir)]),
  ].sort();
  const files = listFiles(layout.resourcesDir).filter((file) => !/\.completion(\.sh)?$/.test(file));
  const names = new Map<string, string>();
  const described = new Set<string>();
  const claim = (name: string, file: string) => {
    const first = names.get(name);
    if (first)
      ctx.report.error('resources', `resource name "${name}" is also used by ${first}; only one is served`, { file });
    else names.set(name, ctx.report.rel(file));
  };
  for (const meta of metaFiles(files)) {
    const content = describedFile(meta, files);
    if (content) described.add(content);
    const value = readJsonObject(ctx, 'resources', meta);
    if (!value || !checkSchema(ctx, 'resources', resourceMeta, value, meta)) continue;
    if (!checkUri(ctx, meta, value, content, providers)) continue;
    // Without a uri of its own the resource is its content file, which the server may leave out.
    const unlisted =
      content && value.uri === undefined && value.uriTemplate === undefined
        ? whyNotListed(content, layout.resourcesDir)
        : undefined;
    if (unlisted) {
      ctx.report.warning('resources', `not listed by the server: ${unlisted}`, { file: content });
      continue;
    }
    checkAudience(ctx, meta, value.annotations);
    const name = typeof value.name === 'string' ? value.name : metaStem(meta).replace(/\.[^.]*$/, '');
    claim(name, meta);
    ctx.report.info('resources', `${value.uriTemplate ? 'resource template' : 'resource'} "${name}"`, { file: meta });
  }
  for (const file of files.filter((path) => !path.endsWith(META_SUFFIX) && !described.has(path))) {
    const unlisted = whyNotListed(file, layout.resourcesDir);
    if (unlisted) {
      ctx.report.warning('resources', `not listed by the server: ${unlisted}`, { file });
      continue;
    }
    const name = basename(file, extname(file));
    claim(name, file);
    ctx.report.info('resources', `resource "${name}" (no metadata: named after the file)`, { file });
  }
}
