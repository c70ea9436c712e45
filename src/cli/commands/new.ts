import { chmodSync, existsSync, mkdirSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { titleFromName } from '../../content/display-names.js';
import { CliError } from '../cli-error.js';
import type { ParsedCommand } from '../command.js';
import { checkName } from '../names.js';
import { createdExampleTool, createProjectSkeleton } from '../scaffold/project-skeleton.js';
import { DIRECTORY_MODE, fileSystemFailure, writeFromTemplate } from '../scaffold/template-files.js';
import { nextSteps, printSkeletonSteps } from './init.js';

const usage = 'mcp-bash new <name> [--no-hello]';

/** `./<name>` exists: a directory may be completed with `init`, anything else may not. */
function refuseExisting(root: string, name: string): never {
  if (statSync(root).isDirectory()) {
    throw new CliError(
      `${root} already exists`,
      1,
      `Choose another name, or run 'mcp-bash init' inside ${name}/ to add what is missing.`,
    );
  }
  throw new CliError(`${root} already exists and is a file, not a directory`, 1, 'Choose another name.');
}

/** The README's "run one tool" line: the example tool only when there is one (D229's rule). */
function readmeRunLine(withHello: boolean): string {
  if (withHello)
    return `mcp-bash run-tool hello --allow-self --args '{"name":"Ada"}'   # run one tool, no client needed`;
  return `${'mcp-bash run-tool my-tool --allow-self'.padEnd(55)}# run the tool scaffolded above, no client needed`;
}

/** `mcp-bash new <name>`: a new project in `./<name>/`. */

export const command: ParsedCommand = {
  name: 'new',
  reads: ['project'],
  // 1.x exits 1 on a malformed command line here (scripts may test for it).
  usageExitCode: 1,
  summary: 'Create a new project in ./<name>/ (skeleton, README and a hello tool)',
  usage,
  options: { boolean: ['hello'] },
  positionals: [{ name: 'name', missing: 'a project name is required' }],
  details: [
    'Arguments:',
    '  <name>       the directory and server name: 1-64 letters, digits, _ or -',
    'Options:',
    '  --no-hello   leave out the example tool tools/hello/',
    '',
    './<name> must not exist yet.',
  ].join('\n'),
  async run(options, context) {
    const name = checkName(options.positionals[0] as string, 'project');
    const { io } = context;
    const root = resolve(io.cwd, name);
    if (existsSync(root)) refuseExisting(root, name);
    const home = context.frameworkHome();
    const withHello = !options.argv.includes('--no-hello');
    try {
      mkdirSync(root);
      // mkdir's mode is masked by the umask; the server refuses a group-writable project root.
      chmodSync(root, DIRECTORY_MODE);
    } catch (error) {
      throw fileSystemFailure(error, root);
    }
    const steps = createProjectSkeleton(root, name, withHello, home);
    writeFromTemplate(home, 'server', 'README.md', join(root, 'README.md'), {
      __NAME__: name,
      __TITLE__: titleFromName(name),
      __RUN_TOOL__: readmeRunLine(createdExampleTool(steps)),
    });
    io.stdout.write(`Created project "${name}" in ./${name}/\n`);
    printSkeletonSteps(io, [...steps, { action: 'Created', path: 'README.md' }], `${name}/`);
    io.stdout.write(nextSteps(root, createdExampleTool(steps), name));
    return 0;
  },
};
