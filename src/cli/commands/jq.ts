import { readFileSync } from 'node:fs';
import type { Readable } from 'node:stream';
import { type FileUse, type JqArgItem, parseJqCommandLine, readsInput } from '../../json/jq-argv.js';
import { type JqEngine, loadJqEngine, locateJqWasm } from '../../json/jq-wasm.js';
import { CliError } from '../cli-error.js';
import type { Command } from '../command.js';

/** jq's own status for usage and system errors (a file it cannot open, bad --slurpfile). */
const JQ_SYSTEM_ERROR = 2;

async function readStream(stream: Readable): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(Buffer.isBuffer(chunk) ? chunk : Buffer.from(String(chunk)));
  return Buffer.concat(chunks).toString('utf8');
}

/** Reads a file as jq would, or reports it the way jq does. */
function readFileForJq(path: string): string {
  try {
    return readFileSync(path, 'utf8');
  } catch (error) {
    const reason =
      (error as NodeJS.ErrnoException).code === 'ENOENT' ? 'No such file or directory' : (error as Error).message;
    throw new CliError(`Could not open ${path}: ${reason}`, JQ_SYSTEM_ERROR);
  }
}

/** Turns a file-reading option into the arguments the WebAssembly jq understands. */
function resolveFileUse(use: FileUse, engine: JqEngine): string[] {
  const text = readFileForJq(use.path);
  if (use.kind === 'program') return [text];
  if (use.kind === 'rawfile') return ['--arg', use.name, text];
  const slurped = engine.run(['-c', '-s', '.'], text);
  if (slurped.exitCode !== 0) {
    throw new CliError(`Bad JSON in --slurpfile ${use.name} ${use.path}: ${slurped.stderr.trim()}`, JQ_SYSTEM_ERROR);
  }
  return ['--argjson', use.name, slurped.stdout.trim()];
}

function resolveItems(items: readonly JqArgItem[], engine: JqEngine): string[] {
  return items.flatMap((item) => (item.kind === 'arg' ? [item.value] : resolveFileUse(item.use, engine)));
}

function loadEngine(homeRoot: string): Promise<JqEngine> {
  const files = locateJqWasm(homeRoot);
  if (!files) {
    throw new CliError(
      `the built-in jq is missing from ${homeRoot} (lib/jq-wasm)`,
      JQ_SYSTEM_ERROR,
      'Reinstall mcp-bash, or install jq or gojq.',
    );
  }
  return loadJqEngine(files);
}

export const command: Command = {
  name: 'jq',
  summary: 'run jq 1.8 (built in; tools use it when neither jq nor gojq is installed)',
  usage: 'mcp-bash jq [options] FILTER [FILE...]',
  details: [
    'The real jq 1.8.2, compiled to WebAssembly, with its own options and exit statuses',
    '(see `man jq`), e.g. -r -c -n -e -s -R -j -a -S --arg --argjson --args --jsonargs',
    '--slurpfile --rawfile -f --tab --indent N. Input comes from the FILEs or stdin.',
  ].join('\n'),
  async run(argv, context) {
    const { io } = context;
    const line = parseJqCommandLine(argv);
    const engine = await loadEngine(context.frameworkHome().root);
    let failedFile = false;
    let input = '';
    const argsForJq = resolveItems(line.items, engine);
    if (line.inputFiles.length > 0) {
      // jq reads its files as one continuous stream.
      for (const path of line.inputFiles) {
        try {
          input += readFileForJq(path);
        } catch (error) {
          io.stderr.write(`jq: error: ${(error as Error).message}\n`);
          failedFile = true;
        }
      }
    } else if (readsInput(line)) {
      input = await readStream(io.stdin);
    }
    const result = engine.run(argsForJq, input);
    io.stdout.write(result.stdout);
    io.stderr.write(result.stderr);
    return failedFile && result.exitCode === 0 ? JQ_SYSTEM_ERROR : result.exitCode;
  },
};
