import type { Writable } from 'node:stream';
import type { FrameworkHome } from '../../assets/framework-home.js';
import type { Env } from '../../config/env-values.js';
import { type ServerConfig, serverConfig } from '../../config/server-config.js';
import type { PathsConfig } from '../../config/slices.js';
import { isSystemError, systemErrorLine } from '../../fs/system-errors.js';
import { remoteTokenProblem } from '../../mcp/remote-token.js';
import { prepareBootstrapProject } from '../../project/bootstrap-project.js';
import { openProject, type ProjectContext } from '../../project/project-context.js';
import { resolveProjectRoot } from '../../project/project-root.js';
import { makeStateDir, stateDirPath } from '../../project/state-dir.js';
import { CliError } from '../cli-error.js';
import type { CommandContext } from '../command.js';
import { requireBash } from '../require-bash.js';

/** Exit statuses after a signal (1.x's: 128 + the signal's number). */
const SIGNAL_EXIT_CODES: ReadonlyArray<[NodeJS.Signals, number]> = [
  ['SIGHUP', 129],
  ['SIGINT', 130],
  ['SIGTERM', 143],
];

/** What a server needs, whatever it speaks over. */
export interface ServingSetup {
  readonly env: Env;
  readonly config: ServerConfig;
  readonly home: FrameworkHome;
  readonly project: ProjectContext;
  readonly stateDir: string;
}

/**
 * The server's state dir, created when possible. A full or unwritable TMPDIR does not stop
 * the server (1.x served): it says so in one line, and tool calls fail with the cause until
 * the directory can be created.
 */
function prepareStateDir(paths: PathsConfig, stderr: Writable): string {
  const dir = stateDirPath(paths);
  try {
    makeStateDir(dir);
  } catch (error) {
    if (!isSystemError(error)) throw error;
    stderr.write(
      `mcp-bash: warning: ${systemErrorLine(error)}; serving anyway, but tools cannot run until it can be created ` +
        `(check TMPDIR or MCPBASH_TMP_ROOT)\n`,
    );
  }
  return dir;
}

/**
 * Checks what must hold before serving (the remote token, Bash, the project root) and opens
 * the project: the one configured or found, else the getting-started project.
 */
export function prepareServing(context: CommandContext): ServingSetup {
  const { env, cwd } = context.io;
  const config = serverConfig(context.config);
  const { paths } = config;
  const tokenProblem = remoteTokenProblem(config.remoteToken);
  if (tokenProblem) {
    // A guard that cannot protect must not silently serve unprotected.
    throw new CliError(
      tokenProblem,
      1,
      'Use a random secret of 32 or more characters (e.g. `openssl rand -hex 32`), or unset MCPBASH_REMOTE_TOKEN.',
    );
  }
  requireBash(env);
  const located = resolveProjectRoot({ configured: paths.projectRoot, cwd });
  if (located.kind === 'invalid') {
    throw new CliError(
      `MCPBASH_PROJECT_ROOT=${located.path} is not a directory`,
      1,
      'Point MCPBASH_PROJECT_ROOT at your project (the directory holding tools/ and server.d/).',
    );
  }
  const home = context.frameworkHome();
  const stateDir = prepareStateDir(paths, context.io.stderr);
  const project =
    located.kind === 'found'
      ? openProject(located.root, paths.layout)
      : openProject(
          prepareBootstrapProject(home, stateDir, (message) =>
            context.io.stderr.write(`mcp-bash: warning: ${message}\n`),
          ),
          paths.layout,
          true,
        );
  return { env, config, home, project, stateDir };
}

/** Runs `onSignal(code, first)` for each SIGHUP, SIGINT, SIGTERM until the returned remover is called. */
export function onStopSignals(onSignal: (code: number, first: boolean) => void): () => void {
  let seen = false;
  // `on`, not `once`: a repeated signal must not fall through to the default action and
  // kill us before the tools' process groups are stopped.
  const handlers = SIGNAL_EXIT_CODES.map(([signal, code]) => {
    const handler = () => {
      onSignal(code, !seen);
      seen = true;
    };
    process.on(signal, handler);
    return [signal, handler] as const;
  });
  return () => {
    for (const [signal, handler] of handlers) process.removeListener(signal, handler);
  };
}
