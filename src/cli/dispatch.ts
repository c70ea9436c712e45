import type { AssetBundle } from '../assets/extract-archive.js';
import { type FrameworkHome, resolveFrameworkHome } from '../assets/framework-home.js';
import { VERSION } from '../build-info.js';
import { loadConfig, problemsFor } from '../config/config.js';
import type { Part } from '../config/setting.js';
import { pathsConfig } from '../config/slices.js';
import { isSystemError, systemErrorLine } from '../fs/system-errors.js';
import { didYouMean } from '../text/did-you-mean.js';
import { CliError, ExitCode, UsageError } from './cli-error.js';
import { type CliIo, type CommandContext, type CommandEntry, isParsedCommand, runParsed } from './command.js';
import { commandTable, serverEntry } from './commands/index.js';
import { commandHelp } from './help-text.js';
import { GLOBAL_HELP, GLOBAL_VERSION, HEALTH_FLAGS, type OptionPlaceFinder, refuseStrayFlag } from './leading-flags.js';
import { wantsHelp } from './parse-options.js';

export interface CliDependencies {
  readonly io: CliIo;
  readonly assets: AssetBundle;
  readonly commands?: readonly CommandEntry[];
  readonly server?: CommandEntry | undefined;
  readonly embeddedServerCjs?: (() => Buffer | undefined) | undefined;
}

function makeContext(deps: CliDependencies): CommandContext {
  let home: FrameworkHome | undefined;
  const config = loadConfig(deps.io.env);
  const paths = pathsConfig(config.values);
  const debug = paths.logStartup ? (message: string) => deps.io.stderr.write(`mcp-bash: ${message}\n`) : undefined;
  return {
    io: deps.io,
    config,
    assets: deps.assets,
    embeddedServerCjs: deps.embeddedServerCjs,
    frameworkHome() {
      if (!home) {
        try {
          home = resolveFrameworkHome(paths.home, deps.io.env, deps.assets, debug);
        } catch (error) {
          throw new CliError(
            `cannot provide the framework files: ${(error as Error).message}`,
            ExitCode.Failure,
            'Make $XDG_DATA_HOME (or ~/.local/share) or the temp dir writable, or set MCPBASH_HOME to a ' +
              'framework directory.',
          );
        }
      }
      return home;
    },
  };
}

function globalUsage(commands: readonly CommandEntry[], hasServer: boolean): string {
  const listed = commands.filter((entry) => !entry.hidden);
  const width = Math.max(10, ...listed.map((entry) => entry.name.length)) + 2;
  const lines = [
    `mcp-bash ${VERSION} - serve a folder of Bash scripts as an MCP server over stdio or HTTP`,
    '',
    'Usage:',
    ...(hasServer
      ? [
          '  mcp-bash                      start the MCP server for the project (MCPBASH_PROJECT_ROOT or the ' +
            'current directory)',
        ]
      : []),
    '  mcp-bash <command> [options]  run a command',
    "  mcp-bash <command> --help     show a command's options (also: mcp-bash help <command>)",
    '',
  ];
  if (listed.length > 0) {
    lines.push('Commands:', ...listed.map((entry) => `  ${entry.name.padEnd(width)}${entry.summary}`), '');
  }
  lines.push(
    'Options:',
    '  -h, --help     show this help (also: mcp-bash help)',
    '  -v, --version  print the version (also: mcp-bash version)',
    '',
  );
  return lines.join('\n');
}

async function runEntry(entry: CommandEntry, argv: readonly string[], context: CommandContext): Promise<number> {
  const command = await entry.load();
  if (wantsHelp(argv)) {
    context.io.stdout.write(command.helpFor?.(argv) ?? commandHelp(command));
    return ExitCode.Ok;
  }
  warnAboutSettings(context, command.reads ?? []);
  try {
    return await (isParsedCommand(command) ? runParsed(command, argv, context) : command.run(argv, context));
  } catch (error) {
    if (error instanceof UsageError && command.usageExitCode !== undefined)
      throw error.withExitCode(command.usageExitCode);
    throw error;
  }
}

/** Unusable values of the settings a command reads: one line each, before it runs (not under MCPBASH_QUIET). */
function warnAboutSettings(context: CommandContext, parts: readonly Part[]): void {
  if (context.config.values.MCPBASH_QUIET) return;
  for (const problem of problemsFor(context.config, parts)) context.io.stderr.write(`mcp-bash: warning: ${problem}\n`);
}

function reportError(error: unknown, io: CliIo, name: string): number {
  if (error instanceof CliError) {
    io.stderr.write(`mcp-bash${name ? ` ${name}` : ''}: ${error.message}\n`);
    if (error instanceof UsageError) io.stderr.write(`Usage: ${error.usage}\n`);
    if (error.hint) io.stderr.write(`${error.hint}\n`);
    return error.exitCode;
  }
  if (isSystemError(error)) {
    // A full disk, a missing permission, a file where a directory should be: the machine's
    // state, said in one line, not a bug.
    io.stderr.write(`mcp-bash${name ? ` ${name}` : ''}: ${systemErrorLine(error)}\n`);
    return ExitCode.Failure;
  }
  // Anything else is a bug in mcp-bash, reported as one.
  const detail = error instanceof Error ? (error.stack ?? error.message) : String(error);
  io.stderr.write(`mcp-bash: internal error (please report this bug): ${detail}\n`);
  return ExitCode.Failure;
}

/** `help` and `version` are words for `--help` and `--version` (D228). */
const HELP_WORDS = [...GLOBAL_HELP, 'help'];
const VERSION_WORDS = [...GLOBAL_VERSION, 'version'];
const BUILTIN_COMMANDS = ['help', 'version'];

/** Where a command's options go and which it accepts (D227's advice); `help` and `version` take none. */
function optionPlaceFinder(commands: readonly CommandEntry[]): OptionPlaceFinder {
  return async (name, rest) => {
    const entry = commands.find((candidate) => candidate.name === name);
    if (!entry) return BUILTIN_COMMANDS.includes(name) ? { words: [name], spec: {} } : undefined;
    const command = await entry.load();
    const subcommand = rest[0];
    if (!isParsedCommand(command) && command.optionsFor) {
      const spec = subcommand === undefined ? undefined : command.optionsFor(subcommand);
      return spec && { words: [name, subcommand as string], spec };
    }
    return command.options && { words: [name], spec: command.options };
  };
}

/**
 * Prints the version and touches nothing on disk: installers, `sudo`, `brew test` run it to
 * check the binary, and extracting the framework files then wrote into someone's home.
 */
function printVersion(context: CommandContext): number {
  context.io.stdout.write(`mcp-bash ${VERSION}\n`);
  return ExitCode.Ok;
}

/**
 * The command line `help ...` stands for: `help validate` is `validate --help`, `help registry
 * refresh` is `registry refresh --help`; `help` alone (or `help help`) is `--help`.
 */
function helpTopic(words: readonly string[]): string[] {
  const [topic = '', ...more] = words;
  if (topic === '' || topic.startsWith('-') || BUILTIN_COMMANDS.includes(topic)) return ['--help'];
  return [topic, ...more, '--help'];
}

function unknownCommand(word: string, names: readonly string[], io: CliIo): number {
  io.stderr.write(
    `mcp-bash: Unknown command: ${word || '(none)'}${didYouMean(word, names)}\n` +
      "Run 'mcp-bash --help' to list the commands.\n",
  );
  return ExitCode.Usage;
}

/** Dispatches a command line (without the program name) and resolves to the exit status. */
export async function runCli(argv: readonly string[], deps: CliDependencies): Promise<number> {
  const commands = deps.commands ?? commandTable;
  const server = deps.server === undefined && deps.commands === undefined ? serverEntry : deps.server;
  const context = makeContext(deps);
  const names = [...commands.map((candidate) => candidate.name), ...BUILTIN_COMMANDS];
  // `help validate`, and `--help validate` as people also type it, are `validate --help`.
  const asksHelpOn = argv[0] === 'help' || (GLOBAL_HELP.includes(argv[0] ?? '') && names.includes(argv[1] ?? ''));
  const [first = '', ...rest] = asksHelpOn ? helpTopic(argv.slice(1)) : argv;
  let name = '';
  try {
    // `version --help` is help about `version`, which the global usage gives (as `help version`).
    const helpOnVersion = first === 'version' && rest.some((word) => GLOBAL_HELP.includes(word));
    if (HELP_WORDS.includes(first) || helpOnVersion) {
      deps.io.stdout.write(globalUsage(commands, server !== undefined));
      return ExitCode.Ok;
    }
    if (VERSION_WORDS.includes(first)) return printVersion(context);
    // The framework files are extracted when a command first needs them (frameworkHome()),
    // so `doctor` can still run, and report, when extraction fails.
    const healthEntry = commands.find((entry) => entry.name === 'health');
    if (HEALTH_FLAGS.includes(first) && healthEntry) {
      name = 'health';
      return await runEntry(healthEntry, rest, context);
    }
    // No command: the server. A leading flag that is not a global one: see refuseStrayFlag.
    if ((first === '' || first.startsWith('-')) && server) {
      const refused =
        first === '' ? undefined : await refuseStrayFlag(argv, names, optionPlaceFinder(commands), deps.io);
      if (refused !== undefined) return refused;
      return await runEntry(server, argv, context);
    }
    const entry = commands.find((candidate) => candidate.name === first);
    if (!entry) return unknownCommand(first, names, deps.io);
    name = entry.name;
    return await runEntry(entry, rest, context);
  } catch (error) {
    return reportError(error, deps.io, name);
  }
}
