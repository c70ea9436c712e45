import type { Command } from './command.js';

/** A command's `--help`: `Usage: ...`, its summary, then its details. */
export function commandHelp(command: Pick<Command, 'usage' | 'summary' | 'details'>): string {
  return [`Usage: ${command.usage}`, '', command.summary, ...(command.details ? ['', command.details] : []), ''].join(
    '\n',
  );
}
