import type { Env } from '../config/env-values.js';
import { findOnPath } from '../process/json-tool.js';
import { DEFAULT_TOOL_PATH } from '../runner/tool-environment.js';
import { CliError, ExitCode } from './cli-error.js';

const WINDOWS_HINT =
  'On Windows, install Git for Windows and add its bash to PATH (C:\\Program Files\\Git\\bin), or use MSYS2, ' +
  'or run mcp-bash inside WSL.';

/**
 * Tools, providers and hooks all run with bash: without one on PATH nothing would work,
 * so the commands that run them stop at once with what to install (a release .exe on a
 * Windows machine without Git Bash is the usual case).
 */
export function requireBash(env: Env): void {
  // Without PATH, tools get the default one (1.x §3.4): bash is looked for where they will run it.
  if (findOnPath('bash', env.PATH ?? env.Path ?? DEFAULT_TOOL_PATH)) return;
  throw new CliError(
    'bash was not found on PATH: mcp-bash runs every tool, resource provider and hook with bash (3.2 or later)',
    ExitCode.Failure,
    process.platform === 'win32' ? WINDOWS_HINT : `Install bash and put it on PATH. ${WINDOWS_HINT}`,
  );
}
