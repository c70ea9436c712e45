import { existsSync } from 'node:fs';
import { basename, dirname, extname, join, relative } from 'node:path';
import { isObject } from '../../json/objects.js';
import { listFiles, readHeadOrEmpty } from '../../project/discovery-files.js';
import { resolveIcons } from '../../project/icons.js';
import type { ProjectLayout } from '../../project/project-layout.js';
import {
  BAD_INLINE_HEADER,
  discoverTools,
  inlineHeader,
  metaDescribesTool,
} from '../../project/tools/tool-discovery.js';
import { toolNamePortability } from '../../project/tools/tool-name.js';
import { UI_META_FILE } from '../../project/ui/ui-discovery.js';
import { toolScriptContainment, uncompiledSchemaWarning } from '../../runner/tool-call-checks.js';
import { toolMeta } from '../../schemas/meta-files.js';
import { toolUiMeta } from '../../schemas/ui-files.js';
import { closestMatch } from '../../text/did-you-mean.js';
import { describedFile, metaFiles, metaStem } from './project-files.js';
import { checkLineEndings, checkScriptFile, fixExecutable } from './script-checks.js';
import { type CheckContext, checkSchema, readJsonObject } from './validation-report.js';

/** Compares a tool's name with its directory's, ignoring a server-name prefix, a dot namespace and -/_. */
function nameMatchesDirectory(name: string, dir: string, serverName: string): boolean {
  const normalise = (text: string) => text.toLowerCase().replace(/_/g, '-');
  let bare = name.includes('.') ? name.slice(name.lastIndexOf('.') + 1) : name;
  for (const separator of ['-', '_', '.']) {
    if (bare.startsWith(`${serverName}${separator}`)) bare = bare.slice(serverName.length + 1);
  }
  return normalise(bare) === normalise(dir) || normalise(name) === normalise(dir);
}

/**
 * Advice that does not stop the tool from working (1.x's warnings); `dir`: the directory a
 * `tool.sh` is named after.
 */
function adviseOnMeta(
  ctx: CheckContext,
  file: string,
  facts: { name?: string; description: unknown; schema: unknown; dir?: string; serverName?: string },
): void {
  const warn = (message: string, field: string) => ctx.report.warning('tools', message, { file, field });
  if (typeof facts.description !== 'string' || facts.description.trim() === '')
    warn('no description: the model picks tools by their description', '/description');
  // Any JSON value may stand here (`"arguments": null` in a header): only an object has properties.
  if (!isObject(facts.schema) || facts.schema.properties === undefined)
    warn('no inputSchema properties: declare the arguments the tool takes', '/inputSchema');
  const { name, dir } = facts;
  const portability = name === undefined ? undefined : toolNamePortability(name);
  if (portability) warn(portability, '/name');
  if (name !== undefined && dir !== undefined && !nameMatchesDirectory(name, dir, facts.serverName ?? ''))
    warn(`name "${name}" does not match its directory "${dir}"`, '/name');
}

/**
 * One metadata file: JSON, schema (file and field of every problem), its script, advice.
 * Returns the tool's name and script.
 */
function checkToolMeta(
  ctx: CheckContext,
  meta: string,
  files: readonly string[],
  serverName: string,
): { name?: string; script?: string; describes?: boolean } {
  const script = describedFile(meta, files);
  const stem = metaStem(meta);
  if (!script) ctx.report.error('tools', `no script for this metadata (expected ${stem}.sh beside it)`, { file: meta });
  const value = readJsonObject(ctx, 'tools', meta);
  if (!value || !checkSchema(ctx, 'tools', toolMeta, value, meta)) return { script };
  checkToolUiShape(ctx, value, meta);
  checkMisspelledFields(ctx, value, meta);
  const describes = metaDescribesTool(value);
  // A meta.json with neither name nor description leaves the tool to its script's header (D282).
  const header = !describes && script ? headerOf(script).header : undefined;
  const given = value.name ?? header?.name;
  if (given === undefined)
    // 1.x's rule: the metadata names its tool (2.x would fall back to the file's name).
    ctx.report.error('tools', 'no "name": the metadata must name its tool', { file: meta, field: '/name' });
  const name =
    typeof given === 'string' ? given : stem === 'tool' ? basename(dirname(meta)) : basename(stem, extname(stem));
  adviseOnMeta(ctx, meta, {
    name,
    description: value.description ?? header?.description,
    schema: value.inputSchema ?? value.arguments ?? header?.inputSchema ?? header?.arguments,
    dir: stem === 'tool' || stem === 'tool.sh' ? basename(dirname(meta)) : undefined,
    serverName,
  });
  const warnings: string[] = [];
  resolveIcons(value.icons, dirname(meta), warnings, 'icons');
  for (const warning of warnings)
    ctx.report.warning('tools', warning.replace(/^icons: /, ''), { file: meta, field: '/icons' });
  return { name, script, describes };
}

type SchemaProperties = { properties: Record<string, { properties?: Record<string, unknown> }> };

/** The fields tool metadata may have, and those of its `annotations` (the format's own lists). */
const TOOL_FIELDS = Object.keys((toolMeta.schema as SchemaProperties).properties);
const ANNOTATION_FIELDS = Object.keys((toolMeta.schema as SchemaProperties).properties.annotations?.properties ?? {});

/**
 * A field that is a typo of a known one (`descripton`, `readonlyHint`) is ignored by the
 * server, silently: a warning naming the field it probably meant. Other unknown fields stay
 * unremarked, as in 1.x (projects keep their own notes there; `_`/`$` keys are never typos).
 */
function checkMisspelledFields(ctx: CheckContext, value: Record<string, unknown>, file: string, prefix = ''): void {
  const check = (object: Record<string, unknown>, known: readonly string[], at: string) => {
    for (const key of Object.keys(object)) {
      if (known.includes(key) || key.startsWith('_') || key.startsWith('$')) continue;
      const meant = closestMatch(key, known);
      if (meant !== undefined)
        ctx.report.warning('tools', `unknown field "${key}" is ignored (did you mean "${meant}"?)`, {
          file,
          field: `${at}/${key}`,
        });
    }
  };
  check(value, TOOL_FIELDS, prefix);
  if (isObject(value.annotations)) check(value.annotations, ANNOTATION_FIELDS, `${prefix}/annotations`);
}

/** A tool's `_meta.ui` against MCP Apps' shape: what the server drops with a warning (D193). */
function checkToolUiShape(ctx: CheckContext, value: Record<string, unknown>, file: string, prefix = ''): void {
  const meta = value._meta;
  if (isObject(meta) && meta.ui !== undefined) checkSchema(ctx, 'ui', toolUiMeta, meta.ui, file, `${prefix}/_meta/ui`);
}

/**
 * A script's inline `# mcp:` header by discovery's rule (an unreadable script reads as empty:
 * checkScriptFile reports it), and whether a header line there is no JSON object.
 */
function headerOf(script: string): { header?: Record<string, unknown>; broken: boolean } {
  const warnings: string[] = [];
  return { header: inlineHeader(readHeadOrEmpty(script), '', warnings), broken: warnings.length > 0 };
}

/** The inline `# mcp:` header of a script, reporting one that is not a JSON object as the server does. */
function scriptHeader(ctx: CheckContext, script: string): Record<string, unknown> | undefined {
  const { header, broken } = headerOf(script);
  if (broken) ctx.report.warning('tools', BAD_INLINE_HEADER, { file: script });
  return header;
}

/** A header the server reads, against the tool metadata format (as a meta.json is checked). */
function checkHeaderFields(ctx: CheckContext, header: Record<string, unknown>, script: string): boolean {
  if (!checkSchema(ctx, 'tools', toolMeta, header, script, '# mcp:')) return false;
  checkToolUiShape(ctx, header, script, '# mcp:');
  checkMisspelledFields(ctx, header, script, '# mcp:');
  return true;
}

/**
 * A script whose meta.json names or describes the tool: the server never reads its header
 * (D282, as 1.x), so one there, even a broken one, is said to be ignored (an edit to it
 * changes nothing).
 */
function reportUnreadHeader(ctx: CheckContext, script: string, meta: string): void {
  const { header, broken } = headerOf(script);
  if (!header && !broken) return;
  ctx.report.info(
    'tools',
    `its "# mcp:" header is not read: ${basename(meta)} names or describes the tool, so it alone does`,
    { file: script },
  );
}

/** A tool defined by its inline `# mcp:` header (or a bare tool.sh): the header against the schema. */
function checkInlineTool(ctx: CheckContext, script: string, name: string): void {
  const header = scriptHeader(ctx, script);
  if (!header) {
    const advice = `tool "${name}" has no metadata: add tool.meta.json with a description and inputSchema`;
    ctx.report.warning('tools', advice, { file: script });
  } else if (checkHeaderFields(ctx, header, script))
    adviseOnMeta(ctx, script, {
      name,
      description: header.description,
      schema: header.inputSchema ?? header.arguments,
    });
}

function reportHelpers(
  ctx: CheckContext,
  toolsDir: string,
  helpers: readonly string[],
  toolScripts: ReadonlySet<string>,
): void {
  for (const helper of helpers) {
    const path = join(toolsDir, helper);
    scriptHeader(ctx, path);
    // Tools source their helpers: a CRLF helper breaks the tool.
    checkLineEndings(ctx, 'tools', path);
    const dir = dirname(path);
    const dirHasTool = [...toolScripts].some((script) => dirname(script) === dir);
    if (dirHasTool) ctx.report.info('tools', 'helper script (no metadata), not a tool', { file: path });
    else
      ctx.report.warning(
        'tools',
        `not a tool: its directory has no tool; name it tool.sh or add ${basename(path, extname(path))}.meta.json`,
        { file: path },
      );
  }
}

/**
 * The server's own refusal of a script that resolves outside tools/ (a symlink out of it):
 * an error in its words, and no other advice about the file. Returns whether it is inside.
 */
function checkContained(ctx: CheckContext, toolsDir: string, script: string): boolean {
  const contained = toolScriptContainment(toolsDir, relative(toolsDir, script));
  if (!('refused' in contained) || !existsSync(script)) return true;
  ctx.report.error('tools', `the server refuses to run it: path rejected by policy: ${contained.refused}`, {
    file: script,
  });
  return false;
}

/**
 * tools/: every metadata file (JSON, schema, its script), every discovered tool's script
 * (executable, shebang, permissions), duplicate names, and the scripts D7 leaves out.
 */
export function checkTools(
  ctx: CheckContext,
  layout: ProjectLayout,
  serverName: string,
  registered?: unknown[] | null,
): void {
  const { toolsDir } = layout;
  const listedInRegisterJson = Array.isArray(registered);
  if (listedInRegisterJson)
    ctx.report.info(
      'tools',
      `server.d/register.json lists the tools (${registered.length}); discovery of tools/ is off`,
    );
  if (!existsSync(toolsDir)) {
    // A resource- or prompt-only project is fine; one that serves nothing is not.
    if (!listedInRegisterJson && !existsSync(layout.promptsDir) && !existsSync(layout.resourcesDir))
      ctx.report.warning(
        'tools',
        'no tools directory, and no prompts/ or resources/: the server has nothing to serve ' +
          "(add a tool with 'mcp-bash scaffold tool NAME')",
        { file: toolsDir },
      );
    return;
  }
  const files = listFiles(toolsDir, 1);
  const names = new Map<string, string[]>();
  const metaScripts = new Set<string>();
  // Scripts whose meta.json describes the tool by itself, with that file: their header is not read.
  const describedBy = new Map<string, string>();
  // tools/<tool>/ui/ui.meta.json describes the tool's view (checked with the UI), not a tool.
  const uiMeta = (path: string) => basename(path) === UI_META_FILE && basename(dirname(path)) === 'ui';
  for (const meta of metaFiles(files).filter((path) => !uiMeta(path))) {
    const { name, script, describes } = checkToolMeta(ctx, meta, files, serverName);
    if (script) metaScripts.add(script);
    if (script && describes) describedBy.set(script, meta);
    if (name) names.set(name, [...(names.get(name) ?? []), ctx.report.rel(meta)]);
  }
  // --fix first, then discover: the report describes the project as the repairs left it.
  for (const script of metaScripts) fixExecutable(ctx, 'tools', script);
  const scan = discoverTools(toolsDir);
  const toolScripts = new Set<string>();
  for (const tool of scan.items) {
    const script = join(toolsDir, tool.path);
    toolScripts.add(script);
    if (checkContained(ctx, toolsDir, script)) checkScriptFile(ctx, 'tools', script);
    if (!metaScripts.has(script)) {
      checkInlineTool(ctx, script, tool.name);
      names.set(tool.name, [...(names.get(tool.name) ?? []), ctx.report.rel(script)]);
    } else {
      const meta = describedBy.get(script);
      if (meta) reportUnreadHeader(ctx, script, meta);
      else {
        // The server merges this meta.json over the header: the header is metadata too.
        const header = scriptHeader(ctx, script);
        if (header) checkHeaderFields(ctx, header, script);
      }
    }
    // The server warns on each call and runs the tool with its arguments unchecked.
    const uncompiled = uncompiledSchemaWarning(tool.name, ctx.validator.check(tool.inputSchema, {}));
    if (uncompiled) ctx.report.warning('tools', uncompiled, { file: script });
    // A ✓ beside a ✗ for the same script would contradict it.
    if (!ctx.report.hasError(script)) ctx.report.info('tools', `tool "${tool.name}"`, { file: script });
  }
  // Metadata whose script discovery could not run (not executable, no shebang, no .sh name).
  for (const script of metaScripts)
    if (!toolScripts.has(script) && checkContained(ctx, toolsDir, script)) checkScriptFile(ctx, 'tools', script);
  for (const [name, owners] of names) {
    if (owners.length > 1)
      ctx.report.error('tools', `tool name "${name}" is used by ${owners.join(' and ')}; only the first is served`);
  }
  reportHelpers(ctx, toolsDir, scan.helpers, toolScripts);
  if (scan.items.length === 0 && !listedInRegisterJson)
    ctx.report.warning('tools', "no tools found (add one with 'mcp-bash scaffold tool NAME')", { file: toolsDir });
}
