import type { CommandEntry } from '../command.js';

/**
 * Every CLI command, in the order `--help` lists them. Modules load only when their
 * command runs, so start-up stays cheap for the server that clients launch.
 */
export const commandTable: readonly CommandEntry[] = [
  { name: 'jq', summary: 'run jq 1.8 (built in; tools use it when neither jq nor gojq is installed)', load: () => import('./jq.js').then((m) => m.command) },
];

/** What `mcp-bash` runs with no command: the stdio MCP server. */
export const serverEntry: CommandEntry = {
  name: 'serve',
  summary: 'Start the MCP server over stdio',
  hidden: true,
  load: () => import('./serve.js').then((module) => module.command),
};
