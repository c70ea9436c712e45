import { appendFileSync, existsSync, mkdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import type { FrameworkHome } from '../../assets/framework-home.js';
import { titleFromName } from '../../project/server-identity.js';
import { FILE_MODE, SCRIPT_MODE, writeFromTemplate, writeNewFile } from './template-files.js';

/** What happened to one path: created, left alone because it exists, or appended to. */
export type SkeletonAction = 'Created' | 'Skipped' | 'Updated';

/** One line of the `init` / `new` report. */
export interface SkeletonStep {
  readonly action: SkeletonAction;
  /** Relative to the project root. */
  readonly path: string;
}

/** The lines every project's .gitignore should have. */
export const GITIGNORE_LINES = ['.registry/', '*.log', '.DS_Store', 'Thumbs.db'];

function gitignoreStep(root: string): SkeletonAction {
  const path = join(root, '.gitignore');
  if (!existsSync(path)) {
    writeNewFile(path, `${GITIGNORE_LINES.join('\n')}\n`);
    return 'Created';
  }
  const text = readFileSync(path, 'utf8');
  const present = new Set(text.split(/\r?\n/).map((line) => line.trim()));
  const missing = GITIGNORE_LINES.filter((line) => !present.has(line));
  if (missing.length === 0) return 'Skipped';
  appendFileSync(path, `${text === '' || text.endsWith('\n') ? '' : '\n'}${missing.join('\n')}\n`);
  return 'Updated';
}

/**
 * The skeleton `init` and `new` create in `root`: server.d/server.meta.json, tools/,
 * .gitignore and (unless `withHello` is false) the hello tool. Existing files are never
 * overwritten; .gitignore only gets its missing lines appended.
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
  create(join(root, 'server.d', 'server.meta.json'), 'server', 'server.meta.json', FILE_MODE);
  const tools = join(root, 'tools');
  steps.push({ action: existsSync(tools) ? 'Skipped' : 'Created', path: 'tools/' });
  mkdirSync(tools, { recursive: true });
  record(gitignoreStep(root), join(root, '.gitignore'));
  const hello = join(tools, 'hello');
  if (withHello && existsSync(hello)) {
    // The user's own tools/hello: adding half of ours beside it (its metadata) would change it.
    record('Skipped', hello);
  } else if (withHello) {
    create(join(hello, 'tool.sh'), 'hello', 'tool.sh', SCRIPT_MODE);
    create(join(hello, 'tool.meta.json'), 'hello', 'tool.meta.json', FILE_MODE);
  }
  return steps;
}
