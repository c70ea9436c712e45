import { existsSync } from 'node:fs';
import { isAbsolute, resolve } from 'node:path';
import type { Env } from '../../config/env-values.js';
import { failureMessage, processFailure } from '../../process/process-result.js';
import { runProcess } from '../../process/process-runner.js';
import { CliError, ExitCode } from '../cli-error.js';

/** Variables bash sets on its own; a sourced file did not choose them. */
const SHELL_OWNED = new Set(['PWD', 'OLDPWD', 'SHLVL', '_']);
const IDENTIFIER = /^[A-Za-z_][A-Za-z0-9_]*$/;

// Sources every file in order with allexport on (so plain `VAR=value` lines count, as they
// did in 1.x, where run-tool sourced them into its own shell), then prints the exported
// environment NUL-separated. The files' own stdout goes to stderr, away from ours.
const DRIVER = [
  'set -a',
  'for _mcpbash_file in "$@"; do . "$_mcpbash_file" >&2 || exit $?; done',
  'unset _mcpbash_file',
  'for _mcpbash_name in $(compgen -e); do printf "%s=%s\\0" "$_mcpbash_name" "${!_mcpbash_name}"; done',
].join('\n');

/** What run-tool is asked to source: server.d/env.sh (when requested) and each --source, in order. */
export interface EnvFiles {
  /** server.d/env.sh when --with-server-env (or MCPBASH_RUN_TOOL_SOURCE_SERVER_ENV) asks for it. */
  readonly serverEnv: string | undefined;
  /** --source files, absolute (relative ones are taken from the project root). */
  readonly sources: readonly string[];
}

/**
 * The env files the flags and MCPBASH_RUN_TOOL_SOURCE_SERVER_ENV ask for (relative --source
 * paths from the project root).
 */
export function envFilesFor(options: {
  serverEnv: boolean;
  sources: readonly string[];
  serverDir: string;
  root: string;
}): EnvFiles {
  return {
    serverEnv: options.serverEnv ? resolve(options.serverDir, 'env.sh') : undefined,
    sources: options.sources.map((source) => (isAbsolute(source) ? source : resolve(options.root, source))),
  };
}

/**
 * The files to source, in order: a missing server.d/env.sh is skipped (it is optional), a
 * missing --source file is not.
 */
export function filesToSource(files: EnvFiles): string[] {
  return [...(files.serverEnv && existsSync(files.serverEnv) ? [files.serverEnv] : []), ...files.sources];
}

function parseEnvDump(dump: string): Map<string, string> {
  const vars = new Map<string, string>();
  for (const entry of dump.split('\0')) {
    const equals = entry.indexOf('=');
    if (equals > 0) vars.set(entry.slice(0, equals), entry.slice(equals + 1));
  }
  return vars;
}

/**
 * `--with-server-env` / `--source FILE`: runs bash once, sourcing the files in order in an
 * environment equal to `base`, and returns `base` with what they set, changed or unset.
 * The result is the launch environment of the call, so the tool sees these variables under
 * the same MCPBASH_TOOL_ENV_MODE rules as the server's own environment.
 */
export async function sourceEnvFiles(
  files: readonly string[],
  base: Env,
  cwd: string,
): Promise<Record<string, string | undefined>> {
  for (const file of files) {
    if (!existsSync(file))
      throw new CliError(
        `env file not found: ${file}`,
        ExitCode.Failure,
        '--source paths are relative to the project root.',
      );
  }
  if (files.length === 0) return { ...base };
  const run = await runProcess({
    command: 'bash',
    args: ['-c', DRIVER, 'mcp-bash-run-tool-env', ...files],
    cwd,
    env: { ...base },
    maxStdoutBytes: 8 * 1024 * 1024,
    maxStderrBytes: 1024 * 1024,
    stderrTailBytes: 2048,
    killGraceMs: 500,
    timeoutMs: 30_000,
  });
  const failure = processFailure(run);
  if (failure) {
    const why =
      failure.kind === 'exit' && run.stderrTail.trim() !== ''
        ? run.stderrTail.trim()
        : failureMessage(failure, { subject: 'bash', timeoutSecs: 30 });
    throw new CliError(`sourcing ${files.join(', ')} failed: ${why}`, ExitCode.Failure);
  }
  const after = parseEnvDump(run.stdout.toString('utf8'));
  const merged: Record<string, string | undefined> = {};
  // What bash cannot see (shell-owned variables, names that are not identifiers) stays as it was.
  for (const [key, value] of Object.entries(base)) {
    if (SHELL_OWNED.has(key) || !IDENTIFIER.test(key)) merged[key] = value;
  }
  for (const [key, value] of after) {
    if (!SHELL_OWNED.has(key) && !key.startsWith('BASH_FUNC_')) merged[key] = value;
  }
  return merged;
}
