import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { CliError, ExitCode } from '../cli-error.js';

/** The text of `OPTION @FILE`, without a leading UTF-8 BOM (editors on Windows write one; jq skips it too). */
function readTextFile(name: string, option: string, cwd: string): string {
  if (option === '@')
    throw new CliError(
      `${name} @ needs a file name: ${name} @FILE`,
      ExitCode.Failure,
      `For example: ${name} @FILE.json`,
    );
  const path = resolve(cwd, option.slice(1));
  try {
    return readFileSync(path, 'utf8').replace(/^\ufeff/, '');
  } catch (error) {
    throw new CliError(
      `cannot read ${path} (${(error as NodeJS.ErrnoException).code ?? (error as Error).message})`,
      ExitCode.Failure,
      `Pass ${name} @FILE with a readable file.`,
    );
  }
}

/**
 * `--args JSON` or `--args @FILE` (decision D13; FILE relative to the working directory):
 * the arguments object. Anything but one JSON object is refused (exit 1).
 */
export function parseToolArguments(option: string | undefined, cwd: string): Record<string, unknown> {
  if (option === undefined || option.trim() === '') return {};
  const fromFile = option.startsWith('@');
  const text = fromFile ? readTextFile('--args', option, cwd) : option;
  const source = fromFile ? `--args ${option}` : '--args';
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    throw new CliError(
      `${source} is not valid JSON: ${(error as Error).message}`,
      ExitCode.Failure,
      fromFile
        ? `Fix the JSON in ${option.slice(1)} (one object, like {"name":"World"}).`
        : 'Quote the object for the shell: --args \'{"name":"World"}\'',
    );
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw new CliError(`${source} must be a JSON object, like {"name":"World"}`, ExitCode.Failure);
  }
  return value as Record<string, unknown>;
}

/**
 * `--sample-response TEXT|@FILE`: what the "model" answers every sampling request of the
 * run with. A JSON object with `content` is a whole CreateMessageResult; anything else is
 * the text of an assistant message.
 */
export function sampleResponse(option: string, cwd: string): Record<string, unknown> {
  const text = option.startsWith('@') ? readTextFile('--sample-response', option, cwd) : option;
  try {
    const value: unknown = JSON.parse(text);
    if (typeof value === 'object' && value !== null && !Array.isArray(value) && 'content' in value)
      return value as Record<string, unknown>;
  } catch {
    // plain text
  }
  return { role: 'assistant', content: { type: 'text', text }, model: 'mcp-bash run-tool' };
}
