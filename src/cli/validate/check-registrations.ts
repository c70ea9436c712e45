import { existsSync, readFileSync } from 'node:fs';
import { isAbsolute, join, resolve } from 'node:path';
import { envBool, envInt, type Env } from '../../config/env-values.js';
import type { ProjectLayout } from '../../project/project-layout.js';
import { parseRegisterJson } from '../../project/registry/register-json.js';
import type { RawRegistrations } from '../../project/registry/manual-kinds.js';
import { insecureFileReason } from '../../project/secure-file.js';
import { manualToolNormalizer } from '../../project/tools/manual-tools.js';
import { completionEntrySchema, promptMetaSchema, resourceMetaSchema } from '../../schemas/meta-files.js';
import { listProjectFiles } from './project-files.js';
import { checkScriptFile } from './script-checks.js';
import { checkSchema, type CheckContext } from './validation-report.js';

function checkEntries(ctx: CheckContext, file: string, kind: string, entries: unknown[] | null | undefined, schema: object): void {
  entries?.forEach((entry, index) => checkSchema(ctx, 'registrations', schema, entry, file, `/${kind}/${index}`));
}

function checkCompletionEntries(ctx: CheckContext, file: string, layout: ProjectLayout, entries: unknown[] | null | undefined): Set<string> {
  const registered = new Set<string>();
  entries?.forEach((entry, index) => {
    if (!checkSchema(ctx, 'registrations', completionEntrySchema, entry, file, `/completions/${index}`)) return;
    const path = (entry as { path: string }).path;
    const script = isAbsolute(path) ? path : resolve(layout.root, path);
    if (!script.startsWith(`${layout.root}/`)) {
      ctx.report.add('error', 'registrations', `${path} is outside the project`, { file, field: `/completions/${index}/path` });
      return;
    }
    registered.add(script);
    if (existsSync(script)) checkScriptFile(ctx, 'registrations', script);
    else ctx.report.add('error', 'registrations', `${path} does not exist`, { file, field: `/completions/${index}/path` });
  });
  return registered;
}

/** register.json: trusted, parsable, the version-1 format, and every entry of every kind. */
function checkRegisterJson(ctx: CheckContext, layout: ProjectLayout, env: Env, file: string): Set<string> {
  const insecure = insecureFileReason(file, [layout.serverDir, layout.root]);
  if (insecure) ctx.report.add('error', 'registrations', `the server refuses it, failing every kind: ${insecure}`, { file });
  const parsed = parseRegisterJson(readFileSync(file), envInt(env, 'MCPBASH_MAX_MANUAL_REGISTRY_BYTES', 1024 * 1024, { min: 1 }));
  if (!parsed.ok) {
    ctx.report.add('error', 'registrations', `invalid, so every kind fails: ${parsed.reason}`, { file });
    return new Set();
  }
  const kinds: RawRegistrations = parsed.kinds;
  if (kinds.tools) {
    const result = manualToolNormalizer(layout.toolsDir)(kinds.tools);
    for (const error of result.errors) ctx.report.add('error', 'registrations', error, { file });
    for (const warning of result.warnings) ctx.report.add('warning', 'registrations', warning, { file });
    for (const tool of result.items as Array<{ path: string }>) {
      const script = join(layout.toolsDir, tool.path);
      if (!existsSync(script)) ctx.report.add('error', 'registrations', `tool script ${tool.path} does not exist in the tools directory`, { file });
    }
  }
  checkEntries(ctx, file, 'prompts', kinds.prompts, promptMetaSchema);
  checkEntries(ctx, file, 'resources', kinds.resources, resourceMetaSchema);
  checkEntries(ctx, file, 'resourceTemplates', kinds.resourceTemplates, resourceMetaSchema);
  const listed = Object.entries(kinds).filter(([, entries]) => Array.isArray(entries)).map(([kind, entries]) => `${kind} (${(entries as unknown[]).length})`);
  const replaced = listed.filter((kind) => !kind.startsWith('completions'));
  const text = listed.length === 0 ? 'registers nothing (every kind is discovered)' : `registers ${listed.join(', ')}${replaced.length > 0 ? ' (a listed kind replaces its discovery)' : ''}`;
  ctx.report.add('info', 'registrations', text, { file });
  return checkCompletionEntries(ctx, file, layout, kinds.completions);
}

function checkHookFile(ctx: CheckContext, layout: ProjectLayout, name: string, consequence: string): void {
  const file = join(layout.serverDir, name);
  if (!existsSync(file)) return;
  const insecure = insecureFileReason(file, [layout.serverDir, layout.root]);
  if (insecure) ctx.report.add('error', 'registrations', `${consequence}: ${insecure}`, { file });
}

/**
 * server.d/register.json (schema and every entry), register.sh (ignored beside register.json;
 * needs MCPBASH_ALLOW_PROJECT_HOOKS), the trust of policy.sh and health-checks.sh, and
 * completion scripts nothing registers.
 */
export function checkRegistrations(ctx: CheckContext, layout: ProjectLayout, env: Env): void {
  const json = join(layout.serverDir, 'register.json');
  const sh = join(layout.serverDir, 'register.sh');
  const registered = existsSync(json) ? checkRegisterJson(ctx, layout, env, json) : new Set<string>();
  if (existsSync(sh)) {
    if (existsSync(json)) ctx.report.add('warning', 'registrations', 'ignored: server.d/register.json exists and replaces register.sh entirely', { file: sh });
    else if (!envBool(env, 'MCPBASH_ALLOW_PROJECT_HOOKS', false)) ctx.report.add('warning', 'registrations', 'runs only with MCPBASH_ALLOW_PROJECT_HOOKS=true (prefer the data-only server.d/register.json)', { file: sh });
    else checkHookFile(ctx, layout, 'register.sh', 'the server refuses it, failing every kind');
  }
  checkHookFile(ctx, layout, 'policy.sh', 'every tool call is denied until it is trusted');
  checkHookFile(ctx, layout, 'health-checks.sh', "'mcp-bash health' reports unhealthy until it is trusted");
  if (existsSync(sh) && !existsSync(json)) return;
  for (const script of listProjectFiles(layout.completionsDir).filter((file) => /\.(sh|bash)$/.test(file) || !file.includes('.'))) {
    if (!registered.has(script)) {
      ctx.report.add('warning', 'registrations', 'completion script not registered: add it to "completions" in server.d/register.json', { file: script });
    }
  }
}
