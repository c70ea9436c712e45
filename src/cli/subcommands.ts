import { UsageError } from './cli-error.js';
import { type Command, type ParsedCommand, type RawCommand, runParsed } from './command.js';
import { commandHelp } from './help-text.js';

/**
 * One subcommand of a command group (`registry refresh`, `scaffold tool`): its usage is the
 * full synopsis (`mcp-bash registry refresh [--quiet]`); its line is parsed as a command's.
 */
export type Subcommand = Pick<
  ParsedCommand,
  'name' | 'summary' | 'usage' | 'details' | 'options' | 'positionals' | 'run'
>;

/** A command made of subcommands, as `commandGroup` builds it. */
export interface SubcommandGroup {
  readonly name: string;
  readonly summary: string;
  readonly usage: string;
  /** Text shown after the list of subcommands in the group's help. */
  readonly details?: string;
  readonly subcommands: readonly Subcommand[];
  /** See Command.usageExitCode. */
  readonly usageExitCode?: number;
  /** See Command.reads: the settings of every subcommand. */
  readonly reads?: Command['reads'];
}

function groupDetails(group: SubcommandGroup): string {
  const width = Math.max(...group.subcommands.map((sub) => sub.name.length)) + 2;
  const lines = ['Subcommands:', ...group.subcommands.map((sub) => `  ${sub.name.padEnd(width)}${sub.summary}`)];
  lines.push('', `Run 'mcp-bash ${group.name} <subcommand> --help' for a subcommand's options.`);
  return [lines.join('\n'), ...(group.details ? [group.details] : [])].join('\n\n');
}

/**
 * A command made of subcommands: the first argument picks one; `--help` after it shows that
 * subcommand's help; a missing or unknown subcommand is a usage error.
 */
export function commandGroup(group: SubcommandGroup): RawCommand {
  const find = (name: string | undefined) => group.subcommands.find((sub) => sub.name === name);
  return {
    name: group.name,
    summary: group.summary,
    usage: group.usage,
    details: groupDetails(group),
    ...(group.usageExitCode === undefined ? {} : { usageExitCode: group.usageExitCode }),
    ...(group.reads === undefined ? {} : { reads: group.reads }),
    optionsFor: (name) => find(name)?.options,
    helpFor(argv) {
      const sub = find(argv[0]);
      return sub ? commandHelp(sub) : undefined;
    },
    async run(argv, context) {
      const [first, ...rest] = argv;
      const sub = find(first);
      if (!sub) {
        const names = group.subcommands.map((candidate) => candidate.name).join(', ');
        throw new UsageError(
          first === undefined
            ? `a subcommand is required (${names})`
            : `unknown subcommand "${first}" (expected ${names})`,
          group.usage,
        );
      }
      return runParsed(sub, rest, context);
    },
  };
}
