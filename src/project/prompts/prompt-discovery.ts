import { basename, dirname, extname, join, relative, resolve, sep } from 'node:path';
import { byText, filesOf, isFile, listFiles, posixRelative, readMetadata, type TreeWalk } from '../discovery-files.js';
import type { ScanResult } from '../registry/registry-store.js';
import { normalizePrompt, type PromptDefinition } from './prompt-definition.js';

const META_SUFFIX = '.meta.json';

/** Whether `path` is `dir` or below it (lexically). */
export function isInside(dir: string, path: string): boolean {
  const rel = relative(resolve(dir), resolve(path));
  return rel === '' || (!rel.startsWith('..') && !rel.startsWith(sep) && rel !== '..');
}

/** Where prompts are looked for, and what their templates may not leave. */
export interface PromptDirs {
  readonly prompts: string;
  readonly project: string;
}

/**
 * A meta file's declared `path`: the first existing file relative to the meta file, the
 * prompts directory, then the project root (1.x's bundler order; 1.x's `scaffold prompt`
 * wrote `prompts/<name>/<name>.txt`, relative to the project root). Paths leaving the
 * project (and the prompts directory, which may lie elsewhere) are never used.
 */
export function declaredTemplate(declared: string, metaDir: string, dirs: PromptDirs): string | undefined {
  return [metaDir, dirs.prompts, dirs.project]
    .map((base) => resolve(base, declared))
    .find((candidate) => (isInside(dirs.project, candidate) || isInside(dirs.prompts, candidate)) && isFile(candidate));
}

/**
 * The template a meta file describes (decision D8): its `path` (see declaredTemplate),
 * else `<stem>` itself (`greet.txt.meta.json`), else the one sibling file named
 * `<stem>.<ext>` (`greet.meta.json` + `greet.txt`).
 */
function templateFor(
  metaPath: string,
  declared: unknown,
  dirs: PromptDirs,
  siblings: readonly string[],
): string | { error: string } {
  const dir = dirname(metaPath);
  if (typeof declared === 'string' && declared !== '') {
    const found = declaredTemplate(declared, dir, dirs);
    return (
      found ?? {
        error:
          `its template "${declared}" does not exist inside the project (looked beside the meta file, in the ` +
          `prompts directory and at the project root)`,
      }
    );
  }
  const stem = basename(metaPath).slice(0, -META_SUFFIX.length);
  if (isFile(join(dir, stem))) return join(dir, stem);
  const candidates = siblings.filter((path) => dirname(path) === dir && basename(path, extname(path)) === stem);
  if (candidates.length === 1) return candidates[0] as string;
  if (candidates.length === 0) return { error: `no template found: set "path" or add ${stem}.txt beside it` };
  return {
    error: `several templates match (${candidates.map((path) => basename(path)).join(', ')}): set "path" to choose one`,
  };
}

/**
 * Scans prompts/ (decision D8): a prompt is a `.meta.json` naming its template, or a
 * template with a sibling `<stem>.meta.json`. Other files (README.md, completion scripts)
 * are not prompts. Invalid metadata skips the prompt with a warning; of two prompts with
 * one name the first (by path) wins.
 */
export function discoverPrompts(
  promptsDir: string,
  projectRoot: string,
  tree?: TreeWalk,
): ScanResult<PromptDefinition> {
  const files = tree ? filesOf(tree).map((file) => file.path) : listFiles(promptsDir);
  const templates = files.filter((path) => !path.endsWith(META_SUFFIX) && !/\.completion(\.sh)?$/.test(path));
  const warnings: string[] = [];
  const found: PromptDefinition[] = [];
  const dirs = { prompts: promptsDir, project: projectRoot };
  for (const metaPath of files.filter((path) => path.endsWith(META_SUFFIX))) {
    const owner = posixRelative(promptsDir, metaPath);
    const meta = readMetadata(metaPath);
    if (typeof meta === 'string') {
      warnings.push(`${owner}: invalid metadata (${meta}); prompt skipped`);
      continue;
    }
    // Messages and scripts (D295) need no template.
    const rich = meta.messages !== undefined || meta.script !== undefined;
    const template = rich ? undefined : templateFor(metaPath, meta.path, dirs, templates);
    if (typeof template === 'object') {
      warnings.push(`${owner}: ${template.error}; prompt skipped`);
      continue;
    }
    const metaDir = dirname(metaPath);
    const normalized = normalizePrompt(
      meta,
      {
        defaultName: template ? basename(template, extname(template)) : basename(metaPath, META_SUFFIX),
        ...(template ? { path: posixRelative(promptsDir, template) } : {}),
        iconBase: metaDir,
        owner,
      },
      (declared) => {
        const file = declaredTemplate(declared, metaDir, dirs);
        return file === undefined ? undefined : posixRelative(promptsDir, file);
      },
    );
    warnings.push(...normalized.warnings);
    if (normalized.error) warnings.push(`${normalized.error}; prompt skipped`);
    if (normalized.item) found.push(normalized.item);
  }
  return { items: dedupePrompts(found, warnings), warnings };
}

/** Sorted by name (then path); later prompts with a name already used are dropped with a warning. */
export function dedupePrompts(prompts: PromptDefinition[], warnings: string[]): PromptDefinition[] {
  const sorted = [...prompts].sort((a, b) => byText(a.name, b.name) || byText(a.path ?? '', b.path ?? ''));
  const seen = new Set<string>();
  return sorted.filter((prompt) => {
    if (!seen.has(prompt.name)) {
      seen.add(prompt.name);
      return true;
    }
    warnings.push(`${prompt.path ?? prompt.name}: prompt name "${prompt.name}" is already used; skipped`);
    return false;
  });
}
