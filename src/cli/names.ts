import { CliError } from './cli-error.js';

/** Names of projects, tools, prompts, resources and completions the CLI creates (1.x's rule). */
export const NAME_PATTERN = /^[A-Za-z0-9_-]{1,64}$/;

/** A valid name for a `what`, to show after a rejected one: `my-server` for a project. */
function exampleName(what: string): string {
  if (what === 'project' || what === 'server') return 'my-server';
  return `my-${what.toLowerCase().replace(/[^a-z0-9]+/g, '-')}`;
}

/** Throws a CliError (exit 1) naming the rule when `name` cannot be used for a `what`. */
export function checkName(name: string, what: string): string {
  if (!NAME_PATTERN.test(name)) {
    throw new CliError(
      `invalid ${what} name "${name}": use 1-64 letters, digits, '_' or '-' (no dots, slashes or spaces)`,
      1,
      `Example: ${exampleName(what)}`,
    );
  }
  return name;
}

/** A usable name derived from any text (a directory's name): invalid characters become '-'. */
export function sanitizeName(text: string): string {
  const cleaned = text
    .replace(/[^A-Za-z0-9_-]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 64);
  return cleaned === '' ? 'mcp-server' : cleaned;
}
