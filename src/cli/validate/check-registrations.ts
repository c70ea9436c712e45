import { existsSync, readFileSync } from 'node:fs';
import { isAbsolute, join, resolve } from 'node:path';
import type { Config } from '../../config/config.js';
import {
  type CompletionTarget,
  completionTargetFor,
  completionTargets,
} from '../../project/completions/completion-targets.js';
import { listFiles } from '../../project/discovery-files.js';
import type { ProjectLayout } from '../../project/project-layout.js';
import { manualPromptNormalizer } from '../../project/prompts/manual-prompts.js';
import type { EntryNormalizer, RawRegistrations } from '../../project/registry/manual-kinds.js';
import { parseRegisterJson } from '../../project/registry/register-json.js';
import { manualResourceNormalizer, manualTemplateNormalizer } from '../../project/resources/manual-resources.js';
import { manualToolNormalizer } from '../../project/tools/manual-tools.js';
import type { ToolDefinition } from '../../project/tools/tool-definition.js';
import { toolNamePortability } from '../../project/tools/tool-name.js';
import { toolScriptContainment, uncompiledSchemaWarning } from '../../runner/tool-call-checks.js';
import {
  completionRegistration,
  type MetaFormat,
  promptMeta,
  resourceMeta,
  strictFormat,
  toolRegistration,
} from '../../schemas/meta-files.js';
import { registerJsonSchema } from '../../schemas/register-json.js';
import { screenMetadata } from '../../validation/metadata-check.js';
import { checkLineEndings, checkScriptFile } from './script-checks.js';
import { checkTrusted } from './trust-checks.js';
import { type CheckContext, checkSchema } from './validation-report.js';

/**
 * Entries of one kind: their metadata schema, then the server's own normalisation of each
 * alone (as entry 0, renamed to its index); an entry the server would skip is an error here
 * (the server only warns and serves the rest). `more` checks further each entry the schema
 * lets through, right after it, with the items the server makes of it.
 */
function checkEntries(
  ctx: CheckContext,
  file: string,
  kind: string,
  entries: unknown[] | null | undefined,
  format: MetaFormat,
  normalize: EntryNormalizer,
  more?: (entry: Record<string, unknown>, index: number, items: unknown[]) => void,
): void {
  for (const [index, entry] of (entries ?? []).entries()) {
    const field = `/${kind}/${index}`;
    if (!checkSchema(ctx, 'registrations', format, entry, file, field)) continue;
    // The format's problems are reported above; the normalizer adds the server's own checks.
    const result = normalize([screenMetadata(format, entry as Record<string, unknown>).value]);
    const owner = (text: string) => text.replace(`${kind}[0]`, `${kind}[${index}]`);
    for (const error of result.errors)
      ctx.report.error('registrations', `${owner(error)}; the server skips this entry`, { file, field });
    for (const warning of result.warnings) ctx.report.warning('registrations', owner(warning), { file, field });
    more?.(entry as Record<string, unknown>, index, result.items);
  }
}

/**
 * A completion whose name no prompt, resource or template has is never asked for
 * (completion/complete looks it up by the prompt's name or the resource's): a warning,
 * naming the one it probably meant. A URI (a `ref/resource` no resource has) is left alone.
 */
function checkCompletionTarget(
  ctx: CheckContext,
  file: string,
  field: string,
  name: string,
  targets: ReadonlyMap<string, CompletionTarget>,
): void {
  if (targets.has(name) || name.includes(':')) return;
  const meant = completionTargetFor(name, targets);
  ctx.report.warning(
    'registrations',
    `completion "${name}" names no prompt, resource or resource template, so no client will ask for it ` +
      '(clients complete the prompts and templates they list)' +
      (meant ? `; the ${meant.target} is named "${meant.name}"` : ''),
    { file, field },
  );
}

function checkCompletionEntries(
  ctx: CheckContext,
  file: string,
  layout: ProjectLayout,
  kinds: RawRegistrations,
): Set<string> {
  const registered = new Set<string>();
  const entries = kinds.completions;
  const targets = Array.isArray(entries) && entries.length > 0 ? completionTargets(layout, kinds) : new Map();
  entries?.forEach((entry, index) => {
    if (!checkSchema(ctx, 'registrations', completionRegistration, entry, file, `/completions/${index}`)) return;
    checkCompletionTarget(ctx, file, `/completions/${index}/name`, (entry as { name: string }).name, targets);
    const path = (entry as { path: string }).path;
    const script = isAbsolute(path) ? path : resolve(layout.root, path);
    if (!script.startsWith(`${layout.root}/`)) {
      ctx.report.error('registrations', `${path} is outside the project`, {
        file,
        field: `/completions/${index}/path`,
      });
      return;
    }
    registered.add(script);
    if (existsSync(script)) checkScriptFile(ctx, 'registrations', script);
    else ctx.report.error('registrations', `${path} does not exist`, { file, field: `/completions/${index}/path` });
  });
  return registered;
}

function parseJsonOrUndefined(bytes: Buffer): unknown {
  try {
    return JSON.parse(bytes.toString('utf8')) as unknown;
  } catch {
    return undefined;
  }
}

/** Tool entries: the metadata schema (plus a script `path`), the server's own normalisation, and the script. */
function checkToolEntries(
  ctx: CheckContext,
  file: string,
  layout: ProjectLayout,
  entries: unknown[] | null | undefined,
): void {
  const seen = new Map<string, number>();
  const normalize = manualToolNormalizer(layout.toolsDir);
  checkEntries(ctx, file, 'tools', entries, toolRegistration, normalize, (entry, index, items) => {
    const field = `/tools/${index}`;
    for (const tool of items as ToolDefinition[]) {
      const uncompiled = uncompiledSchemaWarning(tool.name, ctx.validator.check(tool.inputSchema, {}));
      if (uncompiled) ctx.report.warning('registrations', uncompiled, { file, field: `${field}/inputSchema` });
    }
    const { name, path } = entry as { name: string; path: string };
    const portability = toolNamePortability(name);
    if (portability) ctx.report.warning('registrations', portability, { file, field: `${field}/name` });
    const first = seen.get(name);
    if (first !== undefined)
      ctx.report.warning('registrations', `tool "${name}" is registered twice; tools[${first}] is used`, {
        file,
        field: `${field}/name`,
      });
    else seen.set(name, index);
    // The server's own check when it runs the tool (a symlink out of tools/ is refused).
    const contained = toolScriptContainment(layout.toolsDir, path);
    if ('refused' in contained)
      ctx.report.error('registrations', `tool script ${contained.refused}`, { file, field: `${field}/path` });
  });
}

/** server.d/register.json as validate reads it once: its bytes and the server's own parse. */
export interface RegisterJsonFile {
  readonly file: string;
  readonly bytes: Buffer;
  readonly parsed: ReturnType<typeof parseRegisterJson>;
}

/** Reads server.d/register.json (undefined when there is none). */
export function readRegisterJsonFile(layout: ProjectLayout, config: Config): RegisterJsonFile | undefined {
  const file = join(layout.serverDir, 'register.json');
  if (!existsSync(file)) return undefined;
  const bytes = readFileSync(file);
  return { file, bytes, parsed: parseRegisterJson(bytes, config.values.MCPBASH_MAX_MANUAL_REGISTRY_BYTES) };
}

/** register.json: trusted, parsable, the version-1 format, and every entry of every kind. */
function checkRegisterJson(
  ctx: CheckContext,
  layout: ProjectLayout,
  { file, bytes, parsed }: RegisterJsonFile,
): Set<string> {
  const refused = checkTrusted(ctx, 'registrations', {
    file,
    parents: [layout.serverDir, layout.root],
    consequence: 'the server refuses it, failing every kind',
  });
  if (!parsed.ok) {
    const value = parseJsonOrUndefined(bytes);
    if (value === undefined) {
      ctx.report.error('registrations', `invalid, so every kind fails: ${parsed.reason}`, { file });
    } else {
      // Valid JSON in the wrong shape: one error per offending field.
      ctx.report.error('registrations', 'does not match the register.json format, so every kind fails', { file });
      checkSchema(ctx, 'registrations', strictFormat(registerJsonSchema), value, file);
    }
    return new Set();
  }
  const kinds: RawRegistrations = parsed.kinds;
  checkToolEntries(ctx, file, layout, kinds.tools);
  for (const [kind, format, normalize] of [
    ['prompts', promptMeta, manualPromptNormalizer(layout.promptsDir)],
    ['resources', resourceMeta, manualResourceNormalizer(layout.resourcesDir)],
    ['resourceTemplates', resourceMeta, manualTemplateNormalizer(layout.resourcesDir)],
  ] as const)
    checkEntries(ctx, file, kind, kinds[kind], format, normalize);
  const listed = Object.entries(kinds)
    .filter(([, entries]) => Array.isArray(entries))
    .map(([kind, entries]) => `${kind} (${(entries as unknown[]).length})`);
  const replaced = listed.filter((kind) => !kind.startsWith('completions'));
  const text =
    listed.length === 0
      ? 'registers nothing (every kind is discovered)'
      : `registers ${listed.join(', ')}${replaced.length > 0 ? ' (a listed kind replaces its discovery)' : ''}`;
  // A refused file registers nothing: no pass line beside its error.
  if (!refused) ctx.report.info('registrations', text, { file });
  return checkCompletionEntries(ctx, file, layout, kinds);
}

function checkHookFile(ctx: CheckContext, layout: ProjectLayout, name: string, consequence: string): void {
  const file = join(layout.serverDir, name);
  if (!existsSync(file)) return;
  checkTrusted(ctx, 'registrations', { file, parents: [layout.serverDir, layout.root], consequence });
  checkLineEndings(ctx, 'registrations', file);
}

/**
 * server.d/register.json (schema and every entry), register.sh (ignored beside register.json;
 * needs MCPBASH_ALLOW_PROJECT_HOOKS), the trust of policy.sh and health-checks.sh, and
 * completion scripts nothing registers.
 */
export function checkRegistrations(
  ctx: CheckContext,
  layout: ProjectLayout,
  config: Config,
  registerJson: RegisterJsonFile | undefined,
): void {
  const sh = join(layout.serverDir, 'register.sh');
  const registered = registerJson ? checkRegisterJson(ctx, layout, registerJson) : new Set<string>();
  if (existsSync(sh)) {
    if (registerJson)
      ctx.report.warning('registrations', 'ignored: server.d/register.json exists and replaces register.sh entirely', {
        file: sh,
      });
    else if (!config.values.MCPBASH_ALLOW_PROJECT_HOOKS)
      ctx.report.warning(
        'registrations',
        'runs only with MCPBASH_ALLOW_PROJECT_HOOKS=true (prefer the data-only server.d/register.json)',
        { file: sh },
      );
    else checkHookFile(ctx, layout, 'register.sh', 'the server refuses it, failing every kind');
  }
  checkHookFile(ctx, layout, 'policy.sh', 'every tool call is denied until it is trusted');
  checkHookFile(ctx, layout, 'health-checks.sh', "'mcp-bash health' reports unhealthy until it is trusted");
  if (existsSync(sh) && !registerJson) return;
  const advice = 'completion script not registered: add it to "completions" in server.d/register.json';
  for (const script of listFiles(layout.completionsDir))
    if ((/\.(sh|bash)$/.test(script) || !script.includes('.')) && !registered.has(script))
      ctx.report.warning('registrations', advice, { file: script });
}
