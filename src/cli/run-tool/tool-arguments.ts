import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { CliError, ExitCode } from '../cli-error.js';

/**
 * `--args JSON` or `--args @FILE` (decision D13; FILE relative to the working directory):
 * the arguments object. Anything but one JSON object is refused (exit 1).
 */
export function parseToolArguments(option: string | undefined, cwd: string): Record<string, unknown> {
  if (option === undefined || option.trim() === '') return {};
  let text = option;
  let source = '--args';
  if (option.startsWith('@')) {
    const path = resolve(cwd, option.slice(1));
    source = `--args ${option}`;
    try {
      text = readFileSync(path, 'utf8');
    } catch (error) {
      throw new CliError(
        `cannot read ${path} (${(error as NodeJS.ErrnoException).code ?? (error as Error).message})`,
        ExitCode.Failure,
        'Pass --args @FILE with a readable JSON file, or --args \'{"key":"value"}\'.',
      );
    }
  }
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    throw new CliError(
      `${source} is not valid JSON: ${(error as Error).message}`,
      ExitCode.Failure,
      'Quote the object for the shell: --args \'{"name":"World"}\'',
    );
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw new CliError(`${source} must be a JSON object, like {"name":"World"}`, ExitCode.Failure);
  }
  return value as Record<string, unknown>;
}
