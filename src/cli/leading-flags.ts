import { shellQuote } from '../process/shell-quote.js';
import { didYouMean } from '../text/did-you-mean.js';
import { ExitCode } from './cli-error.js';
import type { CliIo } from './command.js';
import { acceptsOption, expectsValue, knownOptionCount, type OptionSpec } from './parse-options.js';

/** The flags `mcp-bash` itself answers when they come first. */
export const GLOBAL_HELP = ['--help', '-h'];
export const GLOBAL_VERSION = ['--version', '-v'];
export const HEALTH_FLAGS = ['--health', '--ready'];
const GLOBAL_FLAGS = [...GLOBAL_HELP, ...GLOBAL_VERSION, ...HEALTH_FLAGS];

/**
 * The options of mcp-bash's commands that take no value (a test keeps this list equal to the
 * commands' own). After one of these the next word is not its value, so it may be a command.
 */
export const COMMAND_SWITCHES: ReadonlySet<string> = new Set([
  'allow-all',
  'allow-downgrade',
  'allow-self',
  'dry-run',
  'explain-defaults',
  'fix',
  'health',
  'hello',
  'include-gojq',
  'insecure',
  'inspector',
  'json',
  'minimal',
  'native',
  'notify',
  'print-env',
  'quiet',
  'ready',
  'refresh',
  'show',
  'stateless',
  'strict',
  'ui',
  'upgrade',
  'validate',
  'verbose',
  'verify',
  'with-server-env',
  'wrapper',
  'wrapper-env',
]);

/** Whether `flag` (a word starting with `-`) may take the next word as its value. */
function takesValue(flag: string): boolean {
  if (flag.includes('=') || GLOBAL_FLAGS.includes(flag)) return false;
  const name = flag.replace(/^--(no-)?/, '');
  return !COMMAND_SWITCHES.has(name);
}

/**
 * The index of the first word (before any `--`) that names a command, or -1. A word right
 * after a flag that takes values is that flag's value, not a command: a client launching us
 * with `--log-level debug` passes a value that happens to be a command's name (D131).
 */
function commandWordIndex(argv: readonly string[], commandNames: readonly string[]): number {
  const end = argv.indexOf('--');
  const words = end === -1 ? argv : argv.slice(0, end);
  return words.findIndex((word, at) => {
    if (!commandNames.includes(word)) return false;
    const previous = at > 0 ? (words[at - 1] as string) : '';
    return !(previous.startsWith('-') && takesValue(previous));
  });
}

/**
 * Where the options of a command line go and which it accepts: `words` is the command (and
 * its subcommand), `spec` its options ('any': it passes them on, as jq does).
 */
interface OptionPlace {
  readonly words: readonly string[];
  readonly spec: OptionSpec | 'any';
}

/** The OptionPlace of `command` followed by `rest`; undefined when it takes no options here. */
export type OptionPlaceFinder = (command: string, rest: readonly string[]) => Promise<OptionPlace | undefined>;

/** The leading options, without the values of those that take one (`--project-root .`). */
function leadingOptions(words: readonly string[], spec: OptionSpec | 'any' | undefined): string[] {
  const options: string[] = [];
  for (let index = 0; index < words.length; index += 1) {
    const word = words[index] as string;
    if (!word.startsWith('-')) continue;
    options.push(word);
    if (spec !== undefined && spec !== 'any' && expectsValue(spec, word)) index += 1;
  }
  return options;
}

function hasNoOptions(spec: OptionSpec | 'any'): boolean {
  return spec !== 'any' && knownOptionCount(spec) === 0;
}

/** Why options before `command` cannot simply move after it, and where its options are listed. */
function notAccepted(command: string, place: OptionPlace | undefined, foreign: readonly string[]): string {
  if (place !== undefined && hasNoOptions(place.spec)) return `${place.words.join(' ')} takes no options`;
  const target = place?.words.join(' ') ?? command;
  const verb = foreign.length === 1 ? 'is not an option' : 'are not options';
  return `${foreign.join(' ')} ${verb} of ${target}\nRun 'mcp-bash ${target} --help' for its options.`;
}

/**
 * Options before a command (`mcp-bash --project-root . validate`): the person meant the
 * command, which only reads options after its name. A client launching the server passes
 * flags, not command words, so this is refused rather than serving (decision D227). The
 * reordered line is suggested only when the command accepts every one of the options.
 */
async function refuseMisplacedOptions(
  argv: readonly string[],
  commandNames: readonly string[],
  findPlace: OptionPlaceFinder,
  io: CliIo,
): Promise<number | undefined> {
  const at = commandWordIndex(argv, commandNames);
  if (at === -1) return undefined;
  const command = argv[at] as string;
  const rest = argv.slice(at + 1);
  const place = await findPlace(command, rest);
  const before = leadingOptions(argv.slice(0, at), place?.spec);
  const foreign = before.filter(
    (flag) => place === undefined || (place.spec !== 'any' && !acceptsOption(place.spec, flag)),
  );
  if (place === undefined || foreign.length > 0) {
    io.stderr.write(`mcp-bash: options go after the command, but ${notAccepted(command, place, foreign)}\n`);
    return ExitCode.Usage;
  }
  const reordered = [...place.words, ...argv.slice(0, at), ...rest.slice(place.words.length - 1)]
    .map(shellQuote)
    .join(' ');
  io.stderr.write(
    `mcp-bash: options go after the command: put ${before.join(' ')} after ${place.words.join(' ')}\n` +
      `Run: mcp-bash ${reordered}\n`,
  );
  return ExitCode.Usage;
}

/**
 * A leading flag that is not a global one. 1.x started the server for any such flag, and a
 * client may launch us with one 1.x ignored, so it still does - unless a command word follows
 * (the options were put before the command, D227), the flag is a typo of a global flag
 * (`--verison`, `-V`, `--helth`), or a person is at the terminal (stdin is a TTY: no client
 * would start us that way). Then it is an error, exit 2 (decision D131). Returns the exit
 * status, or undefined to start the server.
 */
export async function refuseStrayFlag(
  argv: readonly string[],
  commandNames: readonly string[],
  findPlace: OptionPlaceFinder,
  io: CliIo,
): Promise<number | undefined> {
  const misplaced = await refuseMisplacedOptions(argv, commandNames, findPlace, io);
  if (misplaced !== undefined) return misplaced;
  const flag = argv[0] ?? '';
  const suggestion = didYouMean(flag, GLOBAL_FLAGS);
  const interactive = (io.stdin as { isTTY?: boolean }).isTTY === true;
  if (suggestion === '' && !interactive) {
    io.stderr.write(`mcp-bash: ignoring unknown option ${flag} (as 1.x did) and starting the server\n`);
    return undefined;
  }
  io.stderr.write(`mcp-bash: unknown option ${flag}${suggestion}\nRun 'mcp-bash --help' to list the options.\n`);
  return ExitCode.Usage;
}
