import { existsSync, readFileSync } from 'node:fs';
import { join, relative, sep } from 'node:path';
import type { FrameworkHome } from '../../assets/framework-home.js';
import type { Config } from '../../config/config.js';
import { titleFromName } from '../../content/display-names.js';
import { fileUriFromPath } from '../../content/mime.js';
import { completionTargetFor, completionTargets } from '../../project/completions/completion-targets.js';
import type { ProjectContext } from '../../project/project-context.js';
import { parseRegisterJson } from '../../project/registry/register-json.js';
import { planCompletionRegistration } from './register-completion.js';
import {
  allOrNothing,
  FILE_MODE,
  refuseExisting,
  SCRIPT_MODE,
  type TemplateValues,
  writeFromTemplate,
} from './template-files.js';

/** One file a scaffold writes: template `kind/template` to `target`. */
interface PlannedFile {
  readonly template: string;
  readonly target: string;
  readonly mode: number;
}

/** What a scaffold wrote, for the report. */
export interface ScaffoldResult {
  /** Created files, relative to the project root. */
  readonly created: string[];
  /** Further lines for the user (registration done, next steps). */
  readonly notes: string[];
}

/** What every scaffold needs. */
export interface ScaffoldInput {
  readonly project: ProjectContext;
  readonly home: FrameworkHome;
  readonly config: Config;
  /** The validated name (undefined for `test`). */
  readonly name: string;
}

/** A project-relative path with forward slashes (as metadata stores them). */
export function projectRelative(root: string, path: string): string {
  const rel = relative(root, path);
  return rel.startsWith('..') ? path : rel.split(sep).join('/');
}

/** Writes every file, or none of them (`then`, e.g. a registration, is part of the all). */
function writeAll(
  input: ScaffoldInput,
  kind: string,
  files: readonly PlannedFile[],
  values: TemplateValues,
  then?: () => void,
): string[] {
  const root = input.project.layout.root;
  const targets = files.map((file) => file.target);
  refuseExisting(targets, (path) => projectRelative(root, path));
  allOrNothing(targets, () => {
    for (const file of files) writeFromTemplate(input.home, kind, file.template, file.target, values, file.mode);
    then?.();
  });
  return files.map((file) => projectRelative(root, file.target));
}

/** tools/<name>/: tool.sh, tool.meta.json, README.md, smoke.sh. */
export function scaffoldTool(input: ScaffoldInput): ScaffoldResult {
  const dir = join(input.project.layout.toolsDir, input.name);
  refuseExisting([dir], (path) => `${projectRelative(input.project.layout.root, path)}/`);
  const created = writeAll(
    input,
    'tool',
    [
      { template: 'tool.sh', target: join(dir, 'tool.sh'), mode: SCRIPT_MODE },
      { template: 'tool.meta.json', target: join(dir, 'tool.meta.json'), mode: FILE_MODE },
      { template: 'README.md', target: join(dir, 'README.md'), mode: FILE_MODE },
      { template: 'smoke.sh', target: join(dir, 'smoke.sh'), mode: SCRIPT_MODE },
    ],
    { __NAME__: input.name, __TITLE__: titleFromName(input.name) },
  );
  const smoke = projectRelative(input.project.layout.root, join(dir, 'smoke.sh'));
  return { created, notes: [`Edit ${created[0]} and ${created[1]}, then run ${smoke} and 'mcp-bash validate'.`] };
}

/** prompts/<name>/<name>.txt and <name>.meta.json (whose `path`, relative to it, names the template: D8), README.md. */
export function scaffoldPrompt(input: ScaffoldInput): ScaffoldResult {
  const { root, promptsDir } = input.project.layout;
  const dir = join(promptsDir, input.name);
  refuseExisting([dir], (path) => `${projectRelative(root, path)}/`);
  const template = join(dir, `${input.name}.txt`);
  const created = writeAll(
    input,
    'prompt',
    [
      { template: 'prompt.txt', target: template, mode: FILE_MODE },
      { template: 'prompt.meta.json', target: join(dir, `${input.name}.meta.json`), mode: FILE_MODE },
      { template: 'README.md', target: join(dir, 'README.md'), mode: FILE_MODE },
    ],
    { __NAME__: input.name },
  );
  return {
    created,
    notes: [`The template uses {{subject}} and {{details}}; declare new placeholders in ${created[1]}.`],
  };
}

/**
 * resources/<name>/<name>.txt and <name>.meta.json with a percent-encoded file:// URI (D10).
 * No README.md: every file in resources/ is served as a resource.
 */
export function scaffoldResource(input: ScaffoldInput): ScaffoldResult {
  const { root, resourcesDir } = input.project.layout;
  const dir = join(resourcesDir, input.name);
  refuseExisting([dir], (path) => `${projectRelative(root, path)}/`);
  const content = join(dir, `${input.name}.txt`);
  const uri = fileUriFromPath(content);
  const created = writeAll(
    input,
    'resource',
    [
      { template: 'resource.txt', target: content, mode: FILE_MODE },
      { template: 'resource.meta.json', target: join(dir, `${input.name}.meta.json`), mode: FILE_MODE },
    ],
    { __NAME__: input.name },
  );
  // No "uri" in the metadata: the server derives it from the file where it is now (D130),
  // so the resource survives a copied or moved project.
  return { created, notes: [`Its URI here is ${uri} (derived from the file's location)`] };
}

/**
 * What the completion answers for: the prompt, resource or template `name` names, also as
 * `scaffold prompt|resource` name theirs (`prompt.<name>`), else `name` itself (none yet).
 */
function completionTarget(input: ScaffoldInput): { name: string; note: string } {
  const { layout } = input.project;
  const file = join(layout.serverDir, 'register.json');
  const parsed = existsSync(file)
    ? parseRegisterJson(readFileSync(file), input.config.values.MCPBASH_MAX_MANUAL_REGISTRY_BYTES)
    : undefined;
  const found = completionTargetFor(input.name, completionTargets(layout, parsed?.ok ? parsed.kinds : {}));
  if (found) return { name: found.name, note: `The completion answers for the ${found.target} "${found.name}".` };
  return {
    name: input.name,
    note:
      `No prompt or resource is named "${input.name}" yet; 'scaffold prompt ${input.name}' would name its prompt ` +
      `"prompt.${input.name}": the completion's name in register.json must be the prompt's name.`,
  };
}

/** completions/<name>/completion.sh and README.md, registered in server.d/register.json (D17). */
export function scaffoldCompletion(input: ScaffoldInput): ScaffoldResult {
  const { root, completionsDir, serverDir } = input.project.layout;
  const dir = join(completionsDir, input.name);
  refuseExisting([dir], (path) => `${projectRelative(root, path)}/`);
  const script = join(dir, 'completion.sh');
  const target = completionTarget(input);
  // Decide (and check) the registration before writing anything.
  const registration = planCompletionRegistration(
    serverDir,
    { name: target.name, path: projectRelative(root, script), timeoutSecs: 5 },
    input.config.values.MCPBASH_MAX_MANUAL_REGISTRY_BYTES,
    root,
  );
  const created = writeAll(
    input,
    'completion',
    [
      { template: 'completion.sh', target: script, mode: SCRIPT_MODE },
      { template: 'README.md', target: join(dir, 'README.md'), mode: FILE_MODE },
    ],
    { __NAME__: input.name, __TARGET__: target.name },
    () => registration.apply(),
  );
  const file = projectRelative(root, registration.file);
  const notes = [`${registration.action} ${file}: completion "${target.name}" -> ${projectRelative(root, script)}`];
  if (registration.action === 'Appended') {
    notes.push(
      'register.sh runs only with MCPBASH_ALLOW_PROJECT_HOOKS=true; a data-only server.d/register.json needs no hooks.',
    );
  }
  notes.push(target.note);
  return { created, notes };
}

/** test/run.sh and test/README.md: the run-tool test harness. */
export function scaffoldTest(input: ScaffoldInput): ScaffoldResult {
  const dir = join(input.project.layout.root, 'test');
  const created = writeAll(
    input,
    'test',
    [
      { template: 'run.sh', target: join(dir, 'run.sh'), mode: SCRIPT_MODE },
      { template: 'README.md', target: join(dir, 'README.md'), mode: FILE_MODE },
    ],
    {},
  );
  return { created, notes: ['Add run_test lines to test/run.sh, then run it: test/run.sh'] };
}
