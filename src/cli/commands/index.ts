import type { CommandEntry } from '../command.js';

/**
 * Every CLI command, in the order `--help` lists them. Modules load only when their
 * command runs, so start-up stays cheap for the server that clients launch.
 */
export const commandTable: readonly CommandEntry[] = [
  {
    name: 'serve',
    summary: 'Start the MCP server: stdio, or Streamable HTTP with --http [HOST:]PORT',
    load: () => import('./serve.js').then((m) => m.command),
  },
  {
    name: 'init',
    summary: 'Make the current directory an mcp-bash project',
    load: () => import('./init.js').then((m) => m.command),
  },
  { name: 'new', summary: 'Create a new project in ./<name>/', load: () => import('./new.js').then((m) => m.command) },
  {
    name: 'scaffold',
    summary: 'Add a tool, prompt, resource, completion, UI view or test harness',
    load: () => import('./scaffold.js').then((m) => m.command),
  },
  {
    name: 'run-tool',
    summary: 'Run one tool without an MCP client',
    load: () => import('./run-tool.js').then((m) => m.command),
  },
  {
    name: 'validate',
    summary: "Check a project's metadata, scripts and registrations",
    load: () => import('./validate.js').then((m) => m.command),
  },
  {
    name: 'config',
    summary: 'Print the MCP client configuration for a project',
    load: () => import('./config.js').then((m) => m.command),
  },
  {
    name: 'registry',
    summary: 'Rebuild the registry caches or show their state',
    load: () => import('./registry.js').then((m) => m.command),
  },
  {
    name: 'bundle',
    summary: 'Pack the project into an MCP Bundle (.mcpb) for Claude Desktop',
    load: () => import('./bundle.js').then((m) => m.command),
  },
  {
    name: 'vendor',
    summary: 'Copy the mcp-bash runtime into the project (.mcp-bash/) with a run-server.sh',
    load: () => import('./vendor.js').then((m) => m.command),
  },
  {
    name: 'publish',
    summary: 'Upload an .mcpb bundle to an MCP registry (MCP_REGISTRY_URL)',
    load: () => import('./publish.js').then((m) => m.command),
  },
  {
    name: 'health',
    summary: 'Readiness probe: one JSON line, exit 0 ready, 1 unhealthy, 2 misconfigured',
    load: () => import('./health.js').then((m) => m.command),
  },
  { name: 'ready', summary: 'Same as health', hidden: true, load: () => import('./health.js').then((m) => m.command) },
  {
    name: 'doctor',
    summary: 'Diagnose the install, the machine and the project (--fix repairs)',
    load: () => import('./doctor.js').then((m) => m.command),
  },
  {
    name: 'debug',
    summary: 'Run the MCP server with payload logging (secrets redacted)',
    load: () => import('./debug.js').then((m) => m.command),
  },
  {
    name: 'ui-template',
    summary: 'Print the HTML of an MCP Apps UI template (the SDK uses it)',
    load: () => import('./ui-template.js').then((m) => m.command),
  },
  {
    name: 'jq',
    summary: 'Run jq 1.8 (built in; tools use it when neither jq nor gojq is installed)',
    load: () => import('./jq.js').then((m) => m.command),
  },
  {
    name: 'jq-service',
    summary: 'Internal: the warm built-in jq a server starts for its tools',
    hidden: true,
    load: () => import('./jq-service.js').then((m) => m.command),
  },
  {
    name: 'file-provider',
    summary: 'Internal: the built-in file:// resource provider (providers/file.sh runs it)',
    hidden: true,
    load: () => import('./file-provider.js').then((m) => m.command),
  },
];

/** What `mcp-bash` runs with no command: the stdio MCP server. */
export const serverEntry: CommandEntry = {
  name: 'serve',
  summary: 'Start the MCP server over stdio',
  hidden: true,
  load: () => import('./serve.js').then((module) => module.stdioCommand),
};
