import { join } from 'node:path';
import type { Writable } from 'node:stream';
import { serverConfig } from '../../config/server-config.js';
import { SERVER_PARTS } from '../../config/setting.js';
import type { PathsConfig } from '../../config/slices.js';
import { isSystemError, systemErrorLine } from '../../fs/system-errors.js';
import { StdioTransport } from '../../jsonrpc/stdio-transport.js';
import { McpServer } from '../../mcp/mcp-server.js';
import { remoteTokenProblem } from '../../mcp/remote-token.js';
import { serverModules } from '../../mcp/server-modules.js';
import { prepareBootstrapProject } from '../../project/bootstrap-project.js';
import { openProject } from '../../project/project-context.js';
import { resolveProjectRoot } from '../../project/project-root.js';
import { makeStateDir, stateDirPath } from '../../project/state-dir.js';
import { CliError } from '../cli-error.js';
import type { Command } from '../command.js';
import { PayloadLogTransport } from '../debug/payload-log.js';
import { requireBash } from '../require-bash.js';

const SIGNAL_EXIT_CODES: ReadonlyArray<[NodeJS.Signals, number]> = [
  ['SIGHUP', 129],
  ['SIGINT', 130],
  ['SIGTERM', 143],
];

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
      `mcp-bash: warning: ${systemErrorLine(error)}; serving anyway, but tools cannot run until it can be ` +
        `created (check TMPDIR or MCPBASH_TMP_ROOT)\n`,
    );
  }
  return dir;
}

/** `mcp-bash` with no command: the MCP server over stdio. */
export const command: Command = {
  name: 'serve',
  summary: 'Start the MCP server over stdio',
  usage: 'mcp-bash',
  reads: SERVER_PARTS,
  details: [
    'Serves the project in MCPBASH_PROJECT_ROOT, or the one found by walking up from the',
    'current directory to a server.d/server.meta.json. With neither, serves a getting-started',
    'tool that explains how to set a project up. Speaks JSON-RPC on stdin/stdout; logs on stderr.',
  ].join('\n'),
  async run(_argv, context) {
    const { env, cwd } = context.io;
    const config = serverConfig(context.config);
    const { transport, paths } = config;
    if (transport && transport !== 'stdio') {
      throw new CliError(
        `unsupported transport "${transport}": mcp-bash speaks MCP over stdio only`,
        1,
        'Unset MCPBASH_TRANSPORT / MCP_TRANSPORT, or put an HTTP-to-stdio gateway in front of the server.',
      );
    }
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
    // MCPBASH_DEBUG_PAYLOADS (set by `mcp-bash debug`): every message is logged to the state dir.
    const payloadLog = config.debugPayloads
      ? new PayloadLogTransport(
          new StdioTransport(context.io.stdin, context.io.stdout, config.maxMessageBytes),
          join(stateDir, 'payload.debug.log'),
        )
      : undefined;
    const server = new McpServer({
      input: context.io.stdin,
      output: context.io.stdout,
      stderr: context.io.stderr,
      env,
      config,
      ...(payloadLog ? { transport: payloadLog } : {}),
      home,
      project,
      stateDir,
      modules: serverModules,
    });
    if ((context.io.stdin as { isTTY?: boolean }).isTTY) {
      // Someone ran the server by hand: say what it is waiting for (stderr, never stdout).
      context.io.stderr.write(
        `mcp-bash: serving ${project.identity.info.name} (${project.layout.root}) over stdio; it expects ` +
          `JSON-RPC from an MCP client. Press Ctrl-D to stop.\n`,
      );
    }
    // `on`, not `once`: a repeated signal must not fall through to the default action and
    // kill us before the tools' process groups are stopped.
    const handlers = SIGNAL_EXIT_CODES.map(([signal, code]) => {
      const handler = () => void server.stop(code, 'abort');
      process.on(signal, handler);
      return [signal, handler] as const;
    });
    const code = await server.run();
    for (const [signal, handler] of handlers) process.removeListener(signal, handler);
    // Everything is stopped and stdout is flushed; if some stray handle still holds the
    // event loop, do not hang the client waiting for our exit. Only when the session is
    // this process's own stdio: a server run in-process over other streams (tests) must
    // not end its host.
    if (context.io.stdout === process.stdout) {
      // A last resort once stdout is flushed: a stray handle must not hang the client.
      // biome-ignore lint/nursery/noProcessExit: see above
      setTimeout(() => process.exit(code), 2000).unref();
    }
    return code;
  },
};
