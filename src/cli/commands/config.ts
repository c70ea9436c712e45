import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { CliError, ExitCode, UsageError } from '../cli-error.js';
import { requireProject } from '../cli-project.js';
import type { CliIo, ParsedCommand } from '../command.js';
import { CLIENTS, clientSnippet, findClient, type ServerLaunch, serverLaunch } from '../config/client-snippets.js';
import { wrapperScript } from '../config/wrapper-script.js';
import { NAME_PATTERN } from '../names.js';
import { SCRIPT_MODE, writeNewFile } from '../scaffold/template-files.js';
import { clientCommand, inspectorCommand } from '../self-command.js';

const usage =
  'mcp-bash config [--project-root DIR] [--show | --json | --client NAME | --wrapper | --wrapper-env | ' +
  '--inspector] [--native]';
const MODES = ['show', 'json', 'client', 'wrapper', 'wrapper-env', 'inspector'] as const;

function showAll(io: CliIo, launch: ServerLaunch, native: boolean): void {
  // 1.x's labels (`# Claude Desktop`, ...), then where the snippet goes.
  const blocks = CLIENTS.map((client) => {
    const snippet = clientSnippet(client, launch, native);
    return `# ${client.label}\n# ${snippet.where}\n${snippet.text}`;
  });
  io.stdout.write(`${blocks.join('\n')}`);
}

/**
 * `--wrapper`: on a terminal, writes `<root>/<name>.sh` (+x), refusing to overwrite; piped or
 * redirected, prints the script.
 */
function wrapper(io: CliIo, root: string, name: string, withLoginEnv: boolean): number {
  const script = wrapperScript(name, clientCommand(io.env), withLoginEnv);
  const flag = withLoginEnv ? '--wrapper-env' : '--wrapper';
  if (io.stdout.isTTY !== true) {
    io.stdout.write(script);
    return ExitCode.Ok;
  }
  if (!NAME_PATTERN.test(name)) {
    throw new CliError(
      `the server name "${name}" cannot be a file name`,
      ExitCode.Failure,
      `Redirect the script instead: mcp-bash config ${flag} > ${join(root, 'server.sh')}`,
    );
  }
  const path = join(root, `${name}.sh`);
  if (existsSync(path)) {
    throw new CliError(
      `${path} already exists`,
      ExitCode.Failure,
      `Delete it and run the command again, or redirect the output: mcp-bash config ${flag} | cat`,
    );
  }
  writeNewFile(path, script, SCRIPT_MODE);
  io.stderr.write(`Wrapper script created: ${path}\nUse it as the "command" of your MCP client (no env needed).\n`);
  return ExitCode.Ok;
}

function pickMode(given: Array<(typeof MODES)[number]>): (typeof MODES)[number] {
  if (given.length > 1) throw new UsageError(`choose one of ${given.map((mode) => `--${mode}`).join(', ')}`, usage);
  return given[0] ?? 'show';
}

/** `mcp-bash config`: how MCP clients start this project's server. */

export const command: ParsedCommand = {
  name: 'config',
  reads: ['project'],
  summary: 'Print the MCP client configuration (or a launcher script) for a project',
  usage,
  options: {
    string: ['project-root', 'client'],
    boolean: ['show', 'json', 'wrapper', 'wrapper-env', 'inspector', 'native'],
  },
  details: [
    'Options:',
    '  --project-root DIR  the project (default: MCPBASH_PROJECT_ROOT, or found from here)',
    '  --show              snippets for every client below (the default)',
    '  --json              {"name","command","args","env"}: the launch, for your own tooling',
    `  --client NAME       one client: ${CLIENTS.map((client) => client.id).join(', ')}`,
    '                      (claude-code = claude-cli)',
    "  --native            the client's own form where 1.x printed {name, command, env}:",
    '                      claude-cli: the `claude mcp add-json` command; librechat: YAML',
    '  --wrapper           a launcher script; on a terminal it is written to <root>/<name>.sh',
    '                      (never overwriting), when piped or redirected it is printed',
    '  --wrapper-env       the same, but it first reads your login files (.zprofile, .zshrc,',
    '                      .bash_profile, .profile, .bashrc) so GUI clients get your PATH',
    '  --inspector         the MCP Inspector command that opens this server',
    '',
    'The command is this mcp-bash binary. The env sets MCPBASH_PROJECT_ROOT and',
    'MCPBASH_TOOL_ALLOWLIST="*" (every tool may run; list names to restrict it).',
  ].join('\n'),
  async run(options, context) {
    const mode = pickMode(
      MODES.filter((name) => (name === 'client' ? options.string('client') !== undefined : options.boolean(name))),
    );
    const { io } = context;
    const client = mode === 'client' ? findClient(options.string('client') as string) : undefined;
    if (mode === 'client' && !client) {
      throw new CliError(
        `unknown client "${options.string('client')}"`,
        ExitCode.Usage,
        `Known clients: ${CLIENTS.map((known) => known.id).join(', ')} (claude-code = claude-cli).`,
      );
    }
    const project = requireProject(io, options.string('project-root'), context.config);
    const { root } = project.layout;
    const launch = serverLaunch(project.identity.info.name, root, clientCommand(io.env));
    const native = options.boolean('native');
    if (client) {
      io.stdout.write(clientSnippet(client, launch, native).text);
      // 1.x's object stays the default (D222); on stderr, say where the pasteable form is.
      if (!native && client.native)
        io.stderr.write(
          `note: 'mcp-bash config --client ${client.id} --native' prints the form to paste ` +
            `(${client.native.where})\n`,
        );
    } else if (mode === 'json') io.stdout.write(`${JSON.stringify(launch, null, 2)}\n`);
    else if (mode === 'inspector') io.stdout.write(`${inspectorCommand(root, 'ui', io.env)}\n`);
    else if (mode === 'wrapper' || mode === 'wrapper-env')
      return wrapper(io, root, launch.name, mode === 'wrapper-env');
    else showAll(io, launch, native);
    return ExitCode.Ok;
  },
};
