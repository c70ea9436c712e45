import { existsSync } from 'node:fs';
import type { FrameworkHome } from '../assets/framework-home.js';
import type { Config } from '../config/config.js';
import type { Env } from '../config/env-values.js';
import { jsonToolConfig, logConfig, pathsConfig, registryConfig } from '../config/slices.js';
import { ServerLog, serverLogOptions } from '../mcp/logging.js';
import type { ProcessRegistry } from '../process/process-runner.js';
import { openProject, type ProjectContext } from '../project/project-context.js';
import { ProjectRegistries } from '../project/project-registries.js';
import { resolveProjectRoot } from '../project/project-root.js';
import { createStateDir, removeStateDir } from '../project/state-dir.js';
import { CliError, ExitCode } from './cli-error.js';
import type { CliIo } from './command.js';

const CREATE_HINT =
  'Run the command inside a project, pass --project-root DIR, or set MCPBASH_PROJECT_ROOT (create a project ' +
  "with 'mcp-bash new NAME' or 'mcp-bash init').";

/**
 * The project a CLI command works on: `--project-root`, MCPBASH_PROJECT_ROOT, or the nearest
 * directory holding `server.d/server.meta.json` above the working directory. A root named by
 * the flag or the variable must look like a project too - a server.d/, tools/, prompts/ or
 * resources/ directory - so a mistyped path fails as a missing project does instead of
 * passing as an empty one (D232). Throws a CliError with `exitCode` (1; `health` and
 * `registry` use 2) when there is none.
 */
export function requireProject(
  io: CliIo,
  flag: string | undefined,
  config: Config,
  exitCode: number = ExitCode.Failure,
): ProjectContext {
  const paths = pathsConfig(config.values);
  const located = resolveProjectRoot({ flag, configured: paths.projectRoot, cwd: io.cwd });
  if (located.kind === 'invalid') {
    const what = located.source === 'flag' ? '--project-root' : 'MCPBASH_PROJECT_ROOT';
    throw new CliError(`${what} ${located.path} is not a directory`, exitCode, CREATE_HINT);
  }
  if (located.kind !== 'found') {
    throw new CliError(
      `no mcp-bash project found: no server.d/server.meta.json in ${io.cwd} or above it`,
      exitCode,
      CREATE_HINT,
    );
  }
  const project = openProject(located.root, paths.layout);
  const { layout } = project;
  const parts = [layout.serverDir, layout.toolsDir, layout.promptsDir, layout.resourcesDir];
  if (parts.some((dir) => existsSync(dir))) return project;
  throw new CliError(
    `no mcp-bash project found: ${layout.root} has no server.d/server.meta.json (nor tools/, prompts/ or ` +
      'resources/)',
    exitCode,
    CREATE_HINT,
  );
}

/** Diagnostics of a CLI command on stderr, at MCPBASH_LOG_LEVEL (errors only when quiet). */
export function cliLog(io: CliIo, config: Config, project: ProjectContext | undefined, quiet = false): ServerLog {
  const options = serverLogOptions(logConfig(config.values), io.stderr, project?.layout.serverDir);
  return new ServerLog(quiet ? { ...options, quiet: true } : options);
}

/** What `cliRegistries` needs. */
export interface CliRegistryOptions {
  readonly project: ProjectContext;
  readonly home: FrameworkHome;
  /** The settings (registry, JSON tool) of the command's environment. */
  readonly config: Config;
  /** The environment register.sh starts from. */
  readonly env: Env;
  readonly stateDir: string;
  readonly log: ServerLog;
  /** False for commands that only look (health): `.registry/` is left alone. */
  readonly writeCache?: boolean;
  /** Where processes the scan starts (register.sh) are registered, to be stopped early. */
  readonly processes?: ProcessRegistry;
  /** Tools scans cover only this tools-relative path (`registry refresh --filter`). */
  readonly toolsSubtree?: string;
}

/** The project's registries as the server builds them, for a CLI command. */
export function cliRegistries(options: CliRegistryOptions): ProjectRegistries {
  return new ProjectRegistries({
    layout: options.project.layout,
    home: options.home,
    config: registryConfig(options.config.values),
    jsonTool: jsonToolConfig(options.config.values),
    env: options.env,
    scratchDir: options.stateDir,
    serverName: options.project.identity.info.name,
    log: options.log,
    writeCache: options.writeCache ?? true,
    processes: options.processes,
    ...(options.toolsSubtree === undefined ? {} : { toolsSubtree: options.toolsSubtree }),
  });
}

/** Runs `work` with a private state dir (MCPBASH_STATE_DIR, MCPBASH_TMP_ROOT), removed afterwards unless `preserve`. */
export async function withStateDir<T>(
  config: Config,
  preserve: boolean,
  work: (stateDir: string) => Promise<T>,
): Promise<T> {
  const stateDir = createStateDir(pathsConfig(config.values));
  try {
    return await work(stateDir);
  } finally {
    if (!preserve) removeStateDir(stateDir);
  }
}
