import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { type FileUse, type JqArgItem, parseJqCommandLine, readsInput } from './jq-argv.js';
import type { JqEngine, JqRunResult } from './jq-wasm.js';

/** jq's own status for usage and system errors (a file it cannot open, bad --slurpfile). */
export const JQ_SYSTEM_ERROR = 2;

/** One jq command line to run: its arguments, where relative paths start, and its stdin. */
export interface JqInvocation {
  readonly argv: readonly string[];
  readonly cwd: string;
  /** Called only when jq would read standard input. */
  readStdin(): Promise<string>;
}

/** A failure jq reports before it runs a filter (a missing program or --slurpfile file). */
class JqSystemError extends Error {}

/** Reads a file as jq would, or fails with the words jq uses. */
function readFileForJq(cwd: string, path: string): string {
  try {
    return readFileSync(resolve(cwd, path), 'utf8');
  } catch (error) {
    const reason =
      (error as NodeJS.ErrnoException).code === 'ENOENT' ? 'No such file or directory' : (error as Error).message;
    throw new JqSystemError(`Could not open ${path}: ${reason}`);
  }
}

/** Turns a file-reading option into the arguments the WebAssembly jq understands. */
async function resolveFileUse(use: FileUse, engine: JqEngine, cwd: string): Promise<string[]> {
  const text = readFileForJq(cwd, use.path);
  if (use.kind === 'program') return [text];
  if (use.kind === 'rawfile') return ['--arg', use.name, text];
  const slurped = await engine.run(['-c', '-s', '.'], text);
  if (slurped.exitCode !== 0) {
    throw new JqSystemError(`Bad JSON in --slurpfile ${use.name} ${use.path}: ${slurped.stderr.trim()}`);
  }
  return ['--argjson', use.name, slurped.stdout.trim()];
}

async function resolveItems(items: readonly JqArgItem[], engine: JqEngine, cwd: string): Promise<string[]> {
  const resolved: string[] = [];
  // In order, one at a time: each file use may run jq.
  for (const item of items)
    resolved.push(...(item.kind === 'arg' ? [item.value] : await resolveFileUse(item.use, engine, cwd)));
  return resolved;
}

/**
 * Runs a jq command line on the WebAssembly jq as the jq program would: input files read in
 * order as one stream (a missing one reported, the others still read, status 2), program and
 * argument files read first, stdin read only when jq would read it.
 */
export async function runJqInvocation(engine: JqEngine, invocation: JqInvocation): Promise<JqRunResult> {
  const line = parseJqCommandLine(invocation.argv);
  let argsForJq: string[];
  try {
    argsForJq = await resolveItems(line.items, engine, invocation.cwd);
  } catch (error) {
    if (!(error instanceof JqSystemError)) throw error;
    return { stdout: '', stderr: `jq: error: ${error.message}\n`, exitCode: JQ_SYSTEM_ERROR };
  }
  let input = '';
  let fileErrors = '';
  if (line.inputFiles.length > 0) {
    for (const path of line.inputFiles) {
      try {
        input += readFileForJq(invocation.cwd, path);
      } catch (error) {
        fileErrors += `jq: error: ${(error as Error).message}\n`;
      }
    }
  } else if (readsInput(line)) {
    input = await invocation.readStdin();
  }
  const result = await engine.run(argsForJq, input);
  return {
    stdout: result.stdout,
    stderr: fileErrors + result.stderr,
    exitCode: fileErrors !== '' && result.exitCode === 0 ? JQ_SYSTEM_ERROR : result.exitCode,
  };
}
