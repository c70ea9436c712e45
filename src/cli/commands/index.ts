import type { Command, CommandEntry } from '../command.js';

/** A row of the table: its module is imported only when the command runs. */
function entry(name: string, summary: string, load: () => Promise<{ command: Command }>, hidden?: true): CommandEntry {
  return { name, summary, ...(hidden ? { hidden } : {}), load: () => load().then((module) => module.command) };
}

/**
 * Every CLI command, in the order `--help` lists them. Modules load only when their
 * command runs, so start-up stays cheap for the server that clients launch.
 */
export const commandTable: readonly CommandEntry[] = [
  entry('serve', 'Start the MCP server: stdio, or Streamable HTTP with --http [HOST:]PORT', () => import('./serve.js')),
  entry('init', 'Make the current directory an mcp-bash project', () => import('./init.js')),
  entry('new', 'Create a new project in ./<name>/', () => import('./new.js')),
  entry('scaffold', 'Add a tool, prompt, resource, completion, UI view or test harness', () => import('./scaffold.js')),
  entry('run-tool', 'Run one tool without an MCP client', () => import('./run-tool.js')),
  entry('validate', "Check a project's metadata, scripts and registrations", () => import('./validate.js')),
  entry('config', 'Print the MCP client configuration for a project', () => import('./config.js')),
  entry('registry', 'Rebuild the registry caches or show their state', () => import('./registry.js')),
  entry(
    'bundle',
    'Pack the project into an MCP Bundle (.mcpb) for Claude Desktop',
    () => import('../../distribution/bundle/bundle-command.js'),
  ),
  entry(
    'vendor',
    'Copy the mcp-bash runtime into the project (.mcp-bash/) with a run-server.sh',
    () => import('../../distribution/vendor/vendor-command.js'),
  ),
  entry(
    'publish',
    'Upload an .mcpb bundle to an MCP registry (MCP_REGISTRY_URL)',
    () => import('../../distribution/publish/publish-command.js'),
  ),
  entry(
    'health',
    'Readiness probe: one JSON line, exit 0 ready, 1 unhealthy, 2 misconfigured',
    () => import('./health.js'),
  ),
  entry('ready', 'Same as health', () => import('./health.js'), true),
  entry('doctor', 'Diagnose the install, the machine and the project (--fix repairs)', () => import('./doctor.js')),
  entry('debug', 'Run the MCP server with payload logging (secrets redacted)', () => import('./debug.js')),
  entry('ui-template', 'Print the HTML of an MCP Apps UI template (the SDK uses it)', () => import('./ui-template.js')),
  entry('jq', 'Run jq 1.8 (built in; tools use it when neither jq nor gojq is installed)', () => import('./jq.js')),
  entry(
    'jq-service',
    'Internal: the warm built-in jq a server starts for its tools',
    () => import('./jq-service.js'),
    true,
  ),
  entry(
    'file-provider',
    'Internal: the built-in file:// resource provider (providers/file.sh runs it)',
    () => import('./file-provider.js'),
    true,
  ),
];

/** What `mcp-bash` runs with no command: the stdio MCP server. */
export const serverEntry: CommandEntry = {
  name: 'serve',
  summary: 'Start the MCP server over stdio',
  hidden: true,
  load: () => import('./serve.js').then((module) => module.stdioCommand),
};
