import { realpathSync } from 'node:fs';
import { selfInvocation } from '../process/json-tool.js';
import { shellQuote } from '../process/shell-quote.js';

/** How MCP clients start this mcp-bash: the native binary, or node plus the bundle. */
export interface SelfCommand {
  readonly command: string;
  readonly args: string[];
}

function real(path: string): string {
  try {
    return realpathSync(path);
  } catch {
    return path;
  }
}

/** This program's real path(s), symlinks resolved, as a client config's `command` and `args`. */
export function selfCommand(): SelfCommand {
  const [command, ...args] = selfInvocation().map(real);
  return { command: command as string, args };
}

/** The file that is "mcp-bash": the native binary, or the bundle run by node. */
export function selfExecutable(): string {
  const self = selfCommand();
  return self.args[0] ?? self.command;
}

/**
 * `npx @modelcontextprotocol/inspector ...` for this project: the CLI mode (`--cli`, as
 * `validate --inspector` prints it) or the UI (`config --inspector`).
 */
export function inspectorCommand(root: string, mode: 'cli' | 'ui'): string {
  const self = selfCommand();
  const env = ['-e', shellQuote(`MCPBASH_PROJECT_ROOT=${root}`), '-e', shellQuote('MCPBASH_TOOL_ALLOWLIST=*')];
  const target = [self.command, ...self.args].map(shellQuote);
  return mode === 'cli'
    ? ['npx', '@modelcontextprotocol/inspector', '--cli', ...env, ...target, '--method', 'tools/list'].join(' ')
    : ['npx', '@modelcontextprotocol/inspector', ...env, '--transport', 'stdio', '--', ...target].join(' ');
}
