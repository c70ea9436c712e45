import { realpathSync } from 'node:fs';
import { resolve } from 'node:path';
import { findOnPath, selfInvocation } from '../process/json-tool.js';
import { shellQuote } from '../process/shell-quote.js';

/** How MCP clients start this mcp-bash: the native binary, or node plus the bundle. */
export interface SelfCommand {
  readonly command: string;
  readonly args: string[];
}

/** `path` with symlinks resolved, or as it is when it cannot be resolved. */
export function real(path: string): string {
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

/**
 * The path this program was started by (argv0 made absolute, looked up on PATH when it is a
 * bare name), symlinks kept. Undefined when argv0 does not lead to this very executable:
 * the parent process chooses argv0, so it is only a hint.
 */
function invokedPath(env: NodeJS.ProcessEnv): string | undefined {
  const argv0 = process.argv0;
  if (!argv0) return undefined;
  const candidate = /[\\/]/.test(argv0) ? resolve(argv0) : findOnPath(argv0, env.PATH);
  if (candidate === undefined || real(candidate) !== real(process.execPath)) return undefined;
  return candidate;
}

/**
 * How an MCP client (or a wrapper script) should start this mcp-bash: the path it was
 * invoked by, symlinks kept, so a package manager's stable link (Homebrew's bin/mcp-bash,
 * Scoop's shim) survives an upgrade that moves the real file; else the executable's path.
 * `env` gives the PATH a bare argv0 is looked up on.
 */
export function clientCommand(env: NodeJS.ProcessEnv): SelfCommand {
  const [command, ...args] = selfInvocation();
  return { command: invokedPath(env) ?? (command as string), args };
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
export function inspectorCommand(root: string, mode: 'cli' | 'ui', env: NodeJS.ProcessEnv): string {
  const self = clientCommand(env);
  const settings = ['-e', shellQuote(`MCPBASH_PROJECT_ROOT=${root}`), '-e', shellQuote('MCPBASH_TOOL_ALLOWLIST=*')];
  const target = [self.command, ...self.args].map(shellQuote);
  return mode === 'cli'
    ? ['npx', '@modelcontextprotocol/inspector', '--cli', ...settings, ...target, '--method', 'tools/list'].join(' ')
    : ['npx', '@modelcontextprotocol/inspector', ...settings, '--transport', 'stdio', '--', ...target].join(' ');
}
