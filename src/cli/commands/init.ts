import { existsSync, readFileSync, statSync } from 'node:fs';
import { basename, join } from 'node:path';
import { isObject } from '../../json/objects.js';
import { shellQuote } from '../../process/shell-quote.js';
import { projectLayout } from '../../project/project-layout.js';
import { loadServerIdentity } from '../../project/server-identity.js';
import type { CliIo, ParsedCommand } from '../command.js';
import { checkName, sanitizeName } from '../names.js';
import { createdExampleTool, createProjectSkeleton, type SkeletonStep } from '../scaffold/project-skeleton.js';
import { colorEnabled, palette } from '../terminal.js';

const usage = 'mcp-bash init [--name NAME] [--no-hello]';
const SERVER_META = join('server.d', 'server.meta.json');

/** Prints the skeleton steps (`Created server.d/server.meta.json`, ...) to stdout. */
export function printSkeletonSteps(io: CliIo, steps: readonly SkeletonStep[], prefix = ''): void {
  const colors = palette(colorEnabled(io.stdout, io.env));
  for (const step of steps) {
    const action = step.action === 'Skipped' ? colors.dim('Skipped') : colors.green(step.action);
    const why = step.action === 'Skipped' ? ` (${step.note ?? 'exists'})` : '';
    io.stdout.write(`${action} ${prefix}${step.path}${why}\n`);
  }
}

/** A command to try next and what it does. */
type Step = readonly [command: string, comment: string];

const RUN_HELLO: Step = [`mcp-bash run-tool hello --allow-self --args '{"name":"Ada"}'`, 'run the example tool'];

/** A name for the "add a tool" step that no tool has yet: my-tool, else my-tool-2, ... */
function freeToolName(root: string): string {
  for (let n = 1; ; n += 1) {
    const name = n === 1 ? 'my-tool' : `my-tool-${n}`;
    if (!existsSync(join(root, 'tools', name))) return name;
  }
}

/** The commands to try next, printed after `init` and `new`, their comments in one column. */
export function nextSteps(root: string, withHello: boolean, cdInto?: string): string {
  const steps: Step[] = [
    ...(withHello ? [RUN_HELLO] : []),
    [`mcp-bash scaffold tool ${freeToolName(root)}`, 'add a tool'],
    ['mcp-bash validate', 'check the project'],
    ['mcp-bash config --client claude-desktop', 'wire it into your MCP client'],
  ];
  const width = Math.max(...steps.map(([command]) => command.length)) + 3;
  const lines = ['', 'Next steps:', ...(cdInto ? [`  cd ${cdInto}`] : [])];
  lines.push(...steps.map(([command, comment]) => `  ${command.padEnd(width)}# ${comment}`), '');
  return lines.join('\n');
}

/** Why server.d/server.meta.json names no server (the server then falls back to the directory name). */
function unnamedReason(root: string): string | undefined {
  let meta: unknown;
  try {
    meta = JSON.parse(readFileSync(join(root, 'server.d', 'server.meta.json'), 'utf8'));
  } catch (error) {
    return `is not valid JSON (${(error as Error).message})`;
  }
  if (!isObject(meta)) return 'is not a JSON object';
  return typeof meta.name === 'string' && meta.name.trim() !== '' ? undefined : 'has no "name"';
}

/** Why `--name` was not applied: the kept server.meta.json names another server, or none. */
function nameNotApplied(root: string, explicit: string, declared: string): string | undefined {
  const unnamed = unnamedReason(root);
  if (unnamed)
    return (
      `--name ${explicit} not applied: server.d/server.meta.json exists and ${unnamed}, so the server is ` +
      `named after the directory ("${declared}"); fix the file, or move it away and run init again`
    );
  if (explicit !== declared)
    return `--name ${explicit} not applied: server.d/server.meta.json names the server "${declared}"`;
  return undefined;
}

/**
 * Warns about the project root or server.d/ being writable by group or others (a umask of
 * 002 makes them so): the server does not trust register.json and the hooks there. The
 * user's own directories are not changed behind their back; the warning gives the command.
 */
function warnWritableDirectories(io: CliIo, root: string): void {
  for (const dir of [root, join(root, 'server.d')]) {
    let mode: number;
    try {
      mode = statSync(dir).mode;
    } catch {
      continue;
    }
    if ((mode & 0o022) === 0) continue;
    io.stderr.write(
      `warning: ${dir} is writable by group or others (mode ${(mode & 0o777).toString(8)}): the server will not ` +
        `trust server.d/register.json, register.sh or policy.sh until you run: chmod go-w ${shellQuote(dir)}\n`,
    );
  }
}

/** `mcp-bash init`: turns the current directory into a project. */

export const command: ParsedCommand = {
  name: 'init',
  reads: ['project'],
  // 1.x exits 1 on a malformed command line here (scripts may test for it).
  usageExitCode: 1,
  summary: 'Make the current directory an mcp-bash project (skeleton and a hello tool)',
  usage,
  options: { string: ['name'], boolean: ['hello'] },
  details: [
    'Options:',
    '  --name NAME   the server name; letters, digits, _ and - (default: derived from the',
    '                directory name, other characters becoming -)',
    '  --no-hello    leave out the example tool tools/hello/',
    '',
    'Creates server.d/server.meta.json, tools/, .gitignore and tools/hello/. Files that exist',
    'are left alone ("Skipped"); .gitignore only gets the lines it lacks ("Updated").',
  ].join('\n'),
  async run(options, context) {
    const { io } = context;
    const explicit = options.string('name');
    const name = explicit !== undefined ? checkName(explicit, 'server') : sanitizeName(basename(io.cwd));
    // minimist reads an absent --no-hello as hello=false too, so look at the words.
    const withHello = !options.argv.includes('--no-hello');
    const steps = createProjectSkeleton(io.cwd, name, withHello, context.frameworkHome());
    // An existing server.meta.json is kept, and with it the name the project declares.
    const declared = loadServerIdentity(projectLayout(io.cwd)).info.name;
    io.stdout.write(`Initialized mcp-bash project "${declared}" in ${io.cwd}\n`);
    const directory = basename(io.cwd);
    const createdMeta = steps.some((step) => step.action === 'Created' && step.path === SERVER_META);
    if (explicit === undefined && createdMeta && name !== directory)
      io.stdout.write(
        `Server name "${name}": derived from the directory name "${directory}" ` +
          '(a server name has only letters, digits, _ and -)\n',
      );
    printSkeletonSteps(io, steps);
    warnWritableDirectories(io, io.cwd);
    const notApplied = explicit === undefined ? undefined : nameNotApplied(io.cwd, explicit, declared);
    if (notApplied) io.stdout.write(`${notApplied}\n`);
    io.stdout.write(nextSteps(io.cwd, createdExampleTool(steps)));
    return 0;
  },
};
