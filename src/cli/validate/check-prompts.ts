import { existsSync, readFileSync } from 'node:fs';
import { basename, dirname, extname, relative, resolve } from 'node:path';
import { listFiles, NOT_AN_OBJECT, readMetadata } from '../../project/discovery-files.js';
import type { ProjectLayout } from '../../project/project-layout.js';
import { argumentsSchema, promptContent } from '../../project/prompts/prompt-definition.js';
import { declaredTemplate } from '../../project/prompts/prompt-discovery.js';
import { declaredNames, placeholderNames, placeholderStrings } from '../../project/prompts/prompt-render.js';
import { promptMeta } from '../../schemas/meta-files.js';
import { META_SUFFIX, metaFiles, metaStem } from './project-files.js';
import { type CheckContext, checkSchema, readJsonObject } from './validation-report.js';

/**
 * The template a prompt's metadata names (D8, as discovery resolves it): `path` relative to
 * the meta file, the prompts directory or the project root, inside the project; else
 * `<stem>` itself or the one `<stem>.<ext>` beside it. A string says why there is none.
 */
function templateFor(
  meta: string,
  value: Record<string, unknown>,
  layout: ProjectLayout,
  files: readonly string[],
): string | { error: string; field?: string } {
  const dir = dirname(meta);
  if (typeof value.path === 'string') {
    const declared = value.path;
    const found = declaredTemplate(declared, dir, { prompts: layout.promptsDir, project: layout.root });
    return (
      found ?? {
        error:
          `template "${declared}" not found inside the project (beside the metadata, in the prompts directory or ` +
          `at the project root)`,
        field: '/path',
      }
    );
  }
  const stem = metaStem(meta);
  const candidates = files.filter(
    (file) =>
      dirname(file) === dir &&
      !file.endsWith(META_SUFFIX) &&
      (basename(file) === stem || basename(file, extname(file)) === stem),
  );
  if (candidates.length === 1) return candidates[0] as string;
  return candidates.length === 0
    ? { error: `no template: set "path" or add ${stem}.txt beside it` }
    : {
        error:
          `several templates match (${candidates.map((file) => basename(file)).join(', ')}): set "path" to ` +
          `choose one`,
      };
}

/** The placeholders of prompt text (D9): `${name}` and `{{ name }}` are not substituted, undeclared names warn. */
function checkPlaceholders(ctx: CheckContext, text: string, value: Record<string, unknown>, file: string): void {
  const dollar = text.match(/\$\{[A-Za-z_][A-Za-z0-9_]*\}/);
  if (dollar)
    ctx.report.warning('prompts', `${dollar[0]} is not substituted: placeholders are written {{name}}`, { file });
  const spaced = text.match(/\{\{\s+[A-Za-z_][A-Za-z0-9_]*\s*\}\}|\{\{[A-Za-z_][A-Za-z0-9_]*\s+\}\}/);
  if (spaced)
    ctx.report.warning('prompts', `${spaced[0]} is not substituted: write placeholders without spaces`, { file });
  const declared = declaredNames(argumentsSchema(value.arguments) ?? {});
  for (const name of placeholderNames(text).filter((placeholder) => !declared.has(placeholder))) {
    ctx.report.warning('prompts', `{{${name}}} is not a declared argument (add it to arguments.properties)`, { file });
  }
}

function readText(ctx: CheckContext, file: string): string | undefined {
  try {
    return readFileSync(file, 'utf8');
  } catch {
    ctx.report.error('prompts', 'cannot be read', { file });
    return undefined;
  }
}

/**
 * A rich prompt's `messages` or `script` (D295), as discovery resolves them: each file
 * exists inside the project (added to `used`), each content block has what its type needs,
 * and the placeholders of its text are declared. False when the prompt is unusable.
 */
function checkRichPrompt(
  ctx: CheckContext,
  meta: string,
  value: Record<string, unknown>,
  layout: ProjectLayout,
  used: Set<string>,
): boolean {
  const dirs = { prompts: layout.promptsDir, project: layout.root };
  const content = promptContent(value, 'user', (declared) => {
    const file = declaredTemplate(declared, dirname(meta), dirs);
    if (file !== undefined) used.add(file);
    return file;
  });
  if ('error' in content) {
    ctx.report.error('prompts', content.error, { file: meta, field: content.field });
    return false;
  }
  for (const { content: block } of content.messages ?? []) {
    checkPlaceholders(ctx, placeholderStrings(block).join('\n'), value, meta);
    const text = block.type === 'text' && typeof block.path === 'string' ? readText(ctx, block.path) : undefined;
    if (text !== undefined) checkPlaceholders(ctx, text, value, block.path as string);
  }
  return true;
}

/** A `path` found only relative to the project root (as 1.x's scaffold wrote it) works; suggest the plain form. */
function checkRootRelativePath(
  ctx: CheckContext,
  meta: string,
  value: Record<string, unknown>,
  layout: ProjectLayout,
  template: string,
): void {
  if (typeof value.path !== 'string') return;
  const dir = dirname(meta);
  if (template === resolve(dir, value.path) || template === resolve(layout.promptsDir, value.path)) return;
  ctx.report.warning(
    'prompts',
    `"path" is relative to the project root, as 1.x wrote it; it still works, but "${relative(dir, template)}" ` +
      `(relative to this file) is clearer`,
    { file: meta, field: '/path' },
  );
}

function registeredTemplates(layout: ProjectLayout, registered: unknown[] | null | undefined): string[] {
  const dirs = { prompts: layout.promptsDir, project: layout.root };
  return (registered ?? []).flatMap((entry) => {
    const path = (entry as { path?: unknown } | null)?.path;
    const found = typeof path === 'string' ? declaredTemplate(path, layout.promptsDir, dirs) : undefined;
    return found ? [found] : [];
  });
}

/** Why a metadata file readJsonObject refused is no JSON object ("not valid JSON (...)"). */
function jsonProblem(path: string): string {
  const reason = readMetadata(path);
  return typeof reason === 'string' && reason !== NOT_AN_OBJECT ? `not valid JSON (${reason})` : NOT_AN_OBJECT;
}

/**
 * prompts/ (decision D8): every metadata file (JSON, schema, its template), placeholders
 * ({{var}} only, D9), duplicate names, and templates no metadata describes.
 */
export function checkPrompts(ctx: CheckContext, layout: ProjectLayout, registered?: unknown[] | null): void {
  if (!existsSync(layout.promptsDir)) return;
  const files = listFiles(layout.promptsDir);
  const names = new Map<string, string>();
  // Templates register.json entries name are prompts too (their entries are checked there).
  const templates = new Set<string>(registeredTemplates(layout, registered));
  // Metadata the server cannot use, and why: the template beside it is then no prompt.
  const unusable = new Map<string, string>();
  for (const meta of metaFiles(files)) {
    const value = readJsonObject(ctx, 'prompts', meta);
    if (!value) unusable.set(meta, jsonProblem(meta));
    else if (!checkSchema(ctx, 'prompts', promptMeta, value, meta))
      unusable.set(meta, 'not valid prompt metadata (see its errors)');
    if (!value || unusable.has(meta)) continue;
    if (value.messages !== undefined || value.script !== undefined) {
      if (!checkRichPrompt(ctx, meta, value, layout, templates)) continue;
    } else {
      const template = templateFor(meta, value, layout, files);
      if (typeof template !== 'string') {
        ctx.report.error('prompts', template.error, {
          file: meta,
          ...(template.field ? { field: template.field } : {}),
        });
        continue;
      }
      templates.add(template);
      checkRootRelativePath(ctx, meta, value, layout, template);
      const text = readText(ctx, template);
      if (text !== undefined) checkPlaceholders(ctx, text, value, template);
    }
    const name = typeof value.name === 'string' ? value.name : metaStem(meta);
    if (typeof value.description !== 'string' || value.description.trim() === '')
      ctx.report.warning('prompts', 'no description', { file: meta, field: '/description' });
    if (value.role !== undefined && value.role !== 'user' && value.role !== 'assistant') {
      ctx.report.warning(
        'prompts',
        `role ${JSON.stringify(value.role)} is not an MCP role (user or assistant): the message is sent as "user"`,
        { file: meta, field: '/role' },
      );
    }
    const first = names.get(name);
    if (first)
      ctx.report.error('prompts', `prompt name "${name}" is also used by ${first}`, { file: meta, field: '/name' });
    else names.set(name, ctx.report.rel(meta));
    ctx.report.info('prompts', `prompt "${name}"`, { file: meta });
  }
  for (const file of files) {
    // README.md files and prompt-side completion scripts are not prompts.
    if (file.endsWith(META_SUFFIX) || /\.completion(\.sh)?$/.test(file)) continue;
    if (templates.has(file) || extname(file).toLowerCase() === '.md') continue;
    const metaName = `${basename(file, extname(file))}${META_SUFFIX}`;
    const problem = unusable.get(resolve(dirname(file), metaName));
    const why = problem ? `${metaName} is ${problem}` : `no ${metaName} describes it`;
    ctx.report.warning('prompts', `not a prompt: ${why}`, { file });
  }
}
