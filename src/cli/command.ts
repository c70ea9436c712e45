import type { Readable, Writable } from 'node:stream';
import type { AssetBundle } from '../assets/extract-archive.js';
import type { FrameworkHome } from '../assets/framework-home.js';
import type { Config } from '../config/config.js';
import type { Part } from '../config/setting.js';
import { type CommandLineSpec, type OptionSpec, type ParsedOptions, parseCommandLine } from './parse-options.js';

/** The process surroundings a command talks to; tests substitute their own. */
export interface CliIo {
  readonly stdin: Readable;
  readonly stdout: Writable & { isTTY?: boolean };
  readonly stderr: Writable & { isTTY?: boolean };
  readonly env: NodeJS.ProcessEnv;
  readonly cwd: string;
}

export interface CommandContext {
  readonly io: CliIo;
  /** The configuration (docs/ENV.md), parsed once from `io.env`. */
  readonly config: Config;
  /** The extracted (or MCPBASH_HOME) framework files; throws when they cannot be provided. */
  frameworkHome(): FrameworkHome;
  /** The framework files embedded in this binary (doctor compares and re-extracts them). */
  readonly assets: AssetBundle;
  /** The mcp-bash.cjs embedded in this binary (bundle, vendor), when the build put one in. */
  readonly embeddedServerCjs?: (() => Buffer | undefined) | undefined;
}

/** What every command declares, whoever parses its command line. */
interface CommandBase {
  readonly name: string;
  /** One line for `mcp-bash --help`. */
  readonly summary: string;
  /** The synopsis, e.g. `mcp-bash init [--name NAME] [--no-hello]`. */
  readonly usage: string;
  /** Option and argument descriptions shown by `<command> --help`. */
  readonly details?: string;
  /**
   * Help for a command line that asks for it, when the command has its own (subcommands:
   * `registry refresh --help`); undefined falls back to usage and details.
   */
  helpFor?(argv: readonly string[]): string | undefined;
  /**
   * Exit status for a malformed command line, when the command's 1.x contract documents one
   * other than ExitCode.Usage (init, new, scaffold and registry exit 1).
   */
  readonly usageExitCode?: number;
  /**
   * The parts whose settings the command reads (config/setting.ts): before it runs, each
   * unusable value among them is warned about, one line each on stderr.
   */
  readonly reads?: readonly Part[];
}

/**
 * A command whose command line the dispatcher parses (parseCommandLine) against its options
 * and positionals before it runs: the command gets the result, never a malformed line. The
 * advice for options put before the command (D227) reorders only the options it accepts.
 */
export interface ParsedCommand extends CommandBase, CommandLineSpec {
  /** Runs the command and resolves to its exit status. */
  run(line: ParsedOptions, context: CommandContext): Promise<number>;
}

/**
 * A command that reads its own arguments: one that hands them to another program (`jq`,
 * options 'any'), or a group whose subcommands parse theirs (commandGroup).
 */
export interface RawCommand extends CommandBase {
  readonly options?: 'any';
  /** A command group's: the options of the subcommand named `name`, undefined for no such one. */
  optionsFor?(name: string): OptionSpec | undefined;
  /** Runs the command and resolves to its exit status. */
  run(argv: readonly string[], context: CommandContext): Promise<number>;
}

/** One CLI command, in a module of its own, loaded only when it runs. */
export type Command = ParsedCommand | RawCommand;

/** Whether the dispatcher parses this command's line (it declares its options). */
export function isParsedCommand(command: Command): command is ParsedCommand {
  return typeof command.options === 'object';
}

/** Runs a parsed command on its raw arguments: the one place a command line is parsed. */
export function runParsed(
  command: CommandLineSpec & Pick<ParsedCommand, 'run'>,
  argv: readonly string[],
  context: CommandContext,
): Promise<number> {
  return command.run(parseCommandLine(argv, command), context);
}

/** A row of the command table: enough to list the command without loading it. */
export interface CommandEntry {
  readonly name: string;
  readonly summary: string;
  /** Hidden entries run but are not listed (aliases such as `ready`). */
  readonly hidden?: boolean;
  load(): Promise<Command>;
}
