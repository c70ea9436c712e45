/**
 * Reading a jq command line the way jq 1.8 does, to find what the WebAssembly jq cannot do
 * itself: it has no file system, so input files, `-f` program files, `--slurpfile` and
 * `--rawfile` are read here and handed to it as stdin or arguments.
 */

/** A file argument that must be read before jq runs. */
export type FileUse =
  | { readonly kind: 'program'; readonly path: string }
  | { readonly kind: 'rawfile'; readonly name: string; readonly path: string }
  | { readonly kind: 'slurpfile'; readonly name: string; readonly path: string };

/** One item of the argument list handed to the WebAssembly jq. */
export type JqArgItem =
  | { readonly kind: 'arg'; readonly value: string }
  | { readonly kind: 'file'; readonly use: FileUse };

export interface JqCommandLine {
  /** The arguments for jq, input files removed, file-reading options still to be resolved. */
  readonly items: readonly JqArgItem[];
  /** Input files, in order; empty means stdin. */
  readonly inputFiles: readonly string[];
  /** -n / --null-input. */
  readonly nullInput: boolean;
  /** The filter text when given inline (for the "does -n still read input?" question). */
  readonly program: string | undefined;
  /** No filter and no -f: jq will print its usage; nothing must be read. */
  readonly missingProgram: boolean;
}

/** Long options followed by this many values. */
const LONG_VALUE_COUNT: Readonly<Record<string, number>> = {
  '--arg': 2,
  '--argjson': 2,
  '--slurpfile': 2,
  '--rawfile': 2,
  '--indent': 1,
  '--library-path': 1,
};

/** Parses jq's arguments (everything after `jq`). */
export function parseJqCommandLine(argv: readonly string[]): JqCommandLine {
  const items: JqArgItem[] = [];
  const inputFiles: string[] = [];
  let nullInput = false;
  let fromFile = false;
  let program: string | undefined;
  let programSeen = false;
  let positionalMode: 'files' | 'args' = 'files';
  let argsDone = false;
  const arg = (value: string) => items.push({ kind: 'arg', value });

  for (let index = 0; index < argv.length; index += 1) {
    const token = argv[index] ?? '';
    const isOption = !argsDone && token.startsWith('-') && token !== '-';
    if (!isOption) {
      if (!programSeen) {
        programSeen = true;
        if (fromFile) items.push({ kind: 'file', use: { kind: 'program', path: token } });
        else {
          program = token;
          arg(token);
        }
      } else if (positionalMode === 'args') arg(token);
      else inputFiles.push(token);
      continue;
    }
    if (token === '--') {
      argsDone = true;
      arg(token);
      continue;
    }
    if (token === '--args' || token === '--jsonargs') {
      positionalMode = 'args';
      arg(token);
      continue;
    }
    if (token.startsWith('--')) {
      const count = LONG_VALUE_COUNT[token] ?? 0;
      const values = argv.slice(index + 1, index + 1 + count);
      index += values.length;
      if (token === '--null-input') nullInput = true;
      if (token === '--from-file') {
        // Resolved here: the program text replaces the file name (see FileUse 'program').
        fromFile = true;
        continue;
      }
      if ((token === '--rawfile' || token === '--slurpfile') && values.length === 2) {
        const [name = '', path = ''] = values;
        items.push({ kind: 'file', use: { kind: token === '--rawfile' ? 'rawfile' : 'slurpfile', name, path } });
        continue;
      }
      arg(token);
      values.forEach(arg);
      continue;
    }
    // A cluster of short options (-nr); -L takes the rest of the cluster or the next argument.
    const letters = token.slice(1);
    const libraryAt = letters.indexOf('L');
    const flags = libraryAt === -1 ? letters : letters.slice(0, libraryAt);
    if (flags.includes('n')) nullInput = true;
    if (flags.includes('f')) fromFile = true;
    const kept = flags.replaceAll('f', '') + (libraryAt === -1 ? '' : letters.slice(libraryAt));
    if (kept !== '') arg(`-${kept}`);
    if (libraryAt !== -1 && libraryAt === letters.length - 1 && index + 1 < argv.length) {
      index += 1;
      arg(argv[index] ?? '');
    }
  }
  return { items, inputFiles, nullInput, program, missingProgram: !programSeen };
}

/**
 * Whether jq will read its input: always unless -n, and with -n only when the filter can
 * call `input`/`inputs` (a program from a file is assumed to).
 */
export function readsInput(line: JqCommandLine): boolean {
  if (line.missingProgram) return false;
  if (!line.nullInput) return true;
  return line.program === undefined || /\binputs?\b/.test(line.program);
}
