import { existsSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import type { FrameworkHome } from '../../assets/framework-home.js';
import { titleFromName } from '../../content/display-names.js';
import { rewriteFileAtomic } from '../../fs/atomic-write.js';
import { editTarget } from '../../fs/contained-path.js';
import { CliError } from '../cli-error.js';
import {
  allOrNothing,
  FILE_MODE,
  fileSystemFailure,
  makeDirectories,
  SCRIPT_MODE,
  writeFromTemplate,
  writeNewFile,
} from './template-files.js';

/** What happened to one path: created, left alone because it exists, or appended to. */
type SkeletonAction = 'Created' | 'Skipped' | 'Updated';

/** One line of the `init` / `new` report. */
export interface SkeletonStep {
  readonly action: SkeletonAction;
  /** Relative to the project root. */
  readonly path: string;
  /** Why it was skipped, when not because it exists. */
  readonly note?: string;
}

/** True when the steps created the example tool (not when the user's own tools/hello was kept). */
export function createdExampleTool(steps: readonly SkeletonStep[]): boolean {
  const script = join('tools', 'hello', 'tool.sh');
  return steps.some((step) => step.action === 'Created' && step.path === script);
}

/** The lines every project's .gitignore should have. */
const GITIGNORE_LINES = ['.registry/', '*.log', '.DS_Store', 'Thumbs.db'];

/** Adds the missing lines to .gitignore; never through a symbolic link that leaves the project. */
function gitignoreStep(root: string): SkeletonStep {
  const path = join(root, '.gitignore');
  const target = editTarget(path, root);
  if (target.kind === 'missing') {
    writeNewFile(path, `${GITIGNORE_LINES.join('\n')}\n`);
    return { action: 'Created', path: '.gitignore' };
  }
  if (target.kind === 'refused') {
    return {
      action: 'Skipped',
      path: '.gitignore',
      note: `not changed: ${target.reason}; add ${GITIGNORE_LINES.join(' ')} yourself`,
    };
  }
  const text = readFileSync(target.path, 'utf8');
  const present = new Set(text.split(/\r?\n/).map((line) => line.trim()));
  const missing = GITIGNORE_LINES.filter((line) => !present.has(line));
  if (missing.length === 0) return { action: 'Skipped', path: '.gitignore' };
  try {
    rewriteFileAtomic(target.path, `${text}${text === '' || text.endsWith('\n') ? '' : '\n'}${missing.join('\n')}\n`);
  } catch (error) {
    throw fileSystemFailure(error, target.path);
  }
  return { action: 'Updated', path: '.gitignore' };
}

/** Refuses before anything is written when a directory the skeleton needs is something else. */
function refuseNonDirectories(root: string, dirs: readonly string[]): void {
  for (const dir of dirs) {
    if (existsSync(dir) && !statSync(dir).isDirectory()) {
      throw new CliError(
        `${relative(root, dir)} exists and is not a directory; nothing was written`,
        1,
        'Move it away (or rename it), then run the command again.',
      );
    }
  }
}

/**
 * The skeleton `init` and `new` create in `root`: server.d/server.meta.json, tools/,
 * .gitignore and (unless `withHello` is false) the hello tool. Existing files are never
 * overwritten; .gitignore only gets its missing lines appended (not through a symbolic link
 * out of the project). A needed directory that is a file stops it before anything is
 * written; each file is written whole or not at all, so running it again completes it.
 */
export function createProjectSkeleton(
  root: string,
  name: string,
  withHello: boolean,
  home: FrameworkHome,
): SkeletonStep[] {
  const steps: SkeletonStep[] = [];
  const values = { __NAME__: name, __TITLE__: titleFromName(name) };
  const record = (action: SkeletonAction, path: string) => steps.push({ action, path: relative(root, path) });
  const create = (path: string, kind: string, file: string, mode: number) => {
    if (existsSync(path)) {
      record('Skipped', path);
      return;
    }
    writeFromTemplate(home, kind, file, path, values, mode);
    record('Created', path);
  };
  const tools = join(root, 'tools');
  const hello = join(tools, 'hello');
  refuseNonDirectories(root, [join(root, 'server.d'), tools, ...(withHello ? [hello] : [])]);
  create(join(root, 'server.d', 'server.meta.json'), 'server', 'server.meta.json', FILE_MODE);
  steps.push({ action: existsSync(tools) ? 'Skipped' : 'Created', path: 'tools/' });
  try {
    makeDirectories(tools);
  } catch (error) {
    throw fileSystemFailure(error, tools);
  }
  steps.push(gitignoreStep(root));
  if (withHello && existsSync(hello)) {
    // The user's own tools/hello: adding half of ours beside it (its metadata) would change it.
    record('Skipped', hello);
  } else if (withHello) {
    // Both files or neither: a half tools/hello would be taken for the user's own next time.
    const files = [join(hello, 'tool.sh'), join(hello, 'tool.meta.json')];
    allOrNothing(files, () => {
      create(files[0] as string, 'hello', 'tool.sh', SCRIPT_MODE);
      create(files[1] as string, 'hello', 'tool.meta.json', FILE_MODE);
    });
  }
  return steps;
}
