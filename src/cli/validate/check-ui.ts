import { existsSync, realpathSync, statSync } from 'node:fs';
import { join, sep } from 'node:path';
import type { Config } from '../../config/config.js';
import { isObject } from '../../json/objects.js';
import type { ProjectLayout } from '../../project/project-layout.js';
import { discoverTools } from '../../project/tools/tool-discovery.js';
import { scanUiResources, UI_META_FILE, type UiDir, uiDirectories } from '../../project/ui/ui-discovery.js';
import { DEFAULT_ENTRYPOINT, safeEntrypoint } from '../../project/ui/ui-metadata.js';
import { uiResourceUri } from '../../project/ui/ui-uri.js';
import { templateConfigFormats, uiMeta } from '../../schemas/ui-files.js';
import { isTemplateName } from '../../ui-templates/template-names.js';
import { type CheckContext, checkSchema, readJsonObject } from './validation-report.js';

/** What reading a view's entrypoint gives: no file, the page, or an error (reported). */
type Entrypoint = 'missing' | 'readable' | 'unreadable';

/** The entrypoint file: it exists, stays inside its directory (symlinks resolved) and fits the cap. */
function checkEntrypoint(ctx: CheckContext, ui: UiDir, entrypoint: string, maxBytes: number): Entrypoint {
  const path = join(ui.dir, entrypoint);
  if (!existsSync(path)) return 'missing';
  const real = realpathSync(path);
  if (!real.startsWith(`${realpathSync(ui.dir)}${sep}`)) {
    ctx.report.error('ui', `${entrypoint} leads outside its UI directory; reads are refused`, { file: path });
    return 'unreadable';
  }
  const size = statSync(real).size;
  if (size <= maxBytes) return 'readable';
  ctx.report.error('ui', `${size} bytes, over MCPBASH_MAX_UI_RESOURCE_BYTES (${maxBytes}); reads fail`, { file: path });
  return 'unreadable';
}

/** ui.meta.json against its schema, and the template's config against the template's. Returns the metadata. */
function checkUiMeta(ctx: CheckContext, metaPath: string): Record<string, unknown> | undefined {
  const meta = readJsonObject(ctx, 'ui', metaPath);
  if (!meta || !checkSchema(ctx, 'ui', uiMeta, meta, metaPath)) return undefined;
  if (isTemplateName(meta.template) && isObject(meta.config))
    checkSchema(ctx, 'ui', templateConfigFormats[meta.template], meta.config, metaPath, '/config');
  return meta;
}

/**
 * One view directory; `shadowed` when a tool UI has its name (reported by checkUi). A ✓ only
 * for a view the server serves and can read.
 */
function checkUiDir(ctx: CheckContext, ui: UiDir, serverName: string, maxBytes: number, shadowed: boolean): void {
  const metaPath = join(ui.dir, UI_META_FILE);
  const hasMeta = existsSync(metaPath);
  if (!hasMeta && !existsSync(join(ui.dir, DEFAULT_ENTRYPOINT))) {
    const what = ui.source === 'tool' ? 'the tool has no view' : 'not a UI resource';
    ctx.report.warning('ui', `neither index.html nor ${UI_META_FILE}: ${what}`, { file: ui.dir });
    return;
  }
  const meta = hasMeta ? checkUiMeta(ctx, metaPath) : {};
  if (meta === undefined) return;
  const entrypoint =
    typeof meta.entrypoint === 'string' ? (safeEntrypoint(meta.entrypoint) ?? DEFAULT_ENTRYPOINT) : DEFAULT_ENTRYPOINT;
  const file = checkEntrypoint(ctx, ui, entrypoint, maxBytes);
  if (file === 'missing' && !isTemplateName(meta.template)) {
    ctx.report.error('ui', `neither ${entrypoint} nor a "template": the view serves nothing`, { file: ui.dir });
    return;
  }
  if (file === 'unreadable' || shadowed) return;
  ctx.report.info('ui', `UI resource ${uiResourceUri(serverName, ui.name)}`, { file: ui.dir });
}

/**
 * Each tool's `_meta.ui` names a `ui://` URI this project serves (its shape is checked with
 * the tool's metadata, check-tools.ts; discovery has dropped what fails it).
 */
function checkToolUiMeta(ctx: CheckContext, layout: ProjectLayout, servedUris: ReadonlySet<string>): void {
  for (const tool of discoverTools(layout.toolsDir).items) {
    const ui = tool._meta?.ui;
    if (ui === undefined) continue;
    const file = join(layout.toolsDir, tool.path);
    const uri = isObject(ui) ? ui.resourceUri : undefined;
    if (typeof uri === 'string' && !servedUris.has(uri))
      ctx.report.warning('ui', `tool "${tool.name}": no UI resource of this project is ${uri}`, {
        file,
        field: '/_meta/ui/resourceUri',
      });
  }
}

/**
 * MCP Apps views: every tool `ui/` and standalone `ui/<name>/` directory (metadata, schema,
 * template config, entrypoint inside its directory and under the size cap), names a tool UI
 * already has, and the tools' `_meta.ui`.
 */
export function checkUi(ctx: CheckContext, layout: ProjectLayout, serverName: string, config: Config): void {
  const maxBytes = config.values.MCPBASH_MAX_UI_RESOURCE_BYTES;
  const dirs = uiDirectories(layout);
  const toolUis = new Set(dirs.filter((ui) => ui.source === 'tool').map((ui) => ui.name));
  const isShadowed = (ui: UiDir) => ui.source === 'standalone' && toolUis.has(ui.name);
  for (const ui of dirs) checkUiDir(ctx, ui, serverName, maxBytes, isShadowed(ui));
  for (const ui of dirs)
    if (isShadowed(ui))
      ctx.report.warning('ui', `tools/${ui.name}/ui/ has the same name; this one is not served`, { file: ui.dir });
  const served = scanUiResources({ ...layout, serverName }).items.map((item) => item.uri);
  checkToolUiMeta(ctx, layout, new Set(served));
}
