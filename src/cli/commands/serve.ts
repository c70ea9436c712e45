import { join } from 'node:path';
import { SERVER_PARTS } from '../../config/setting.js';
import { httpListenValue, resolveHttpSettings } from '../../http/http-settings.js';
import { StdioTransport } from '../../jsonrpc/stdio-transport.js';
import { McpServer } from '../../mcp/mcp-server.js';
import { serverModules } from '../../mcp/server-modules.js';
import { CliError, ExitCode, UsageError } from '../cli-error.js';
import type { CommandContext, ParsedCommand, RawCommand } from '../command.js';
import { PayloadLogTransport } from '../debug/payload-log.js';
import { onStopSignals, prepareServing } from '../serve/serve-setup.js';

const usage = 'mcp-bash serve [--http [HOST:]PORT [--path PATH] [--stateless] [--insecure]]';

/** The MCP server over stdio: what `mcp-bash` with no command runs, and `serve` without --http. */
async function serveStdio(context: CommandContext): Promise<number> {
  const { values } = context.config;
  const transport = values.MCPBASH_TRANSPORT ?? values.MCP_TRANSPORT;
  if (transport && transport !== 'stdio') {
    throw new CliError(
      `unsupported transport "${transport}": plain mcp-bash speaks MCP over stdio`,
      1,
      'For Streamable HTTP run `mcp-bash serve --http [HOST:]PORT` (docs/REMOTE.md); ' +
        'otherwise unset MCPBASH_TRANSPORT / MCP_TRANSPORT.',
    );
  }
  const { env, config, home, project, stateDir } = prepareServing(context);
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
      `mcp-bash: serving ${project.identity.info.name} (${project.layout.root}) over stdio; it expects JSON-RPC ` +
        `from an MCP client. Press Ctrl-D to stop.\n`,
    );
  }
  const removeSignalHandlers = onStopSignals((code) => void server.stop(code, 'abort'));
  const code = await server.run();
  removeSignalHandlers();
  // Everything is stopped and stdout is flushed; if some stray handle still holds the
  // event loop, do not hang the client waiting for our exit. Only when the session is
  // this process's own stdio: a server run in-process over other streams (tests) must
  // not end its host.
  if (context.io.stdout === process.stdout) {
    // Output still queued means the flush was given up (the client stopped reading, past
    // MCPBASH_SHUTDOWN_TIMEOUT or a second signal): its pending write would hold the event
    // loop for ever, and there is nothing left to drain.
    const abandoned = process.stdout.writableLength > 0;
    // A last resort once stdout is flushed: a stray handle must not hang the client.
    // biome-ignore lint/nursery/noProcessExit: see above
    setTimeout(() => process.exit(code), abandoned ? 0 : 2000).unref();
  }
  return code;
}

/** `mcp-bash` with no command: the MCP server over stdio (its arguments are ignored, as in 1.x). */
export const stdioCommand: RawCommand = {
  name: 'serve',
  summary: 'Start the MCP server over stdio',
  usage: 'mcp-bash',
  reads: SERVER_PARTS,
  details: [
    'Serves the project in MCPBASH_PROJECT_ROOT, or the one found by walking up from the',
    'current directory to a server.d/server.meta.json. With neither, serves a getting-started',
    'tool that explains how to set a project up. Speaks JSON-RPC on stdin/stdout; logs on stderr.',
  ].join('\n'),
  run: (_argv, context) => serveStdio(context),
};

/** `mcp-bash serve`: stdio, or MCP Streamable HTTP with --http (or MCPBASH_HTTP_LISTEN). */

export const command: ParsedCommand = {
  name: 'serve',
  summary: 'Start the MCP server: over stdio, or over Streamable HTTP with --http',
  usage,
  options: { string: ['http', 'path'], boolean: ['stateless', 'insecure'] },
  reads: [...SERVER_PARTS, 'cli:serve'],
  details: [
    'Without --http (and without MCPBASH_HTTP_LISTEN) this is plain `mcp-bash`: stdio.',
    '',
    'Options:',
    '  --http [HOST:]PORT  serve MCP Streamable HTTP; HOST defaults to 127.0.0.1, port 0 picks',
    '                      a free port. Prints `mcp-bash: listening on http://HOST:PORT/mcp` on stderr',
    '  --path PATH         the MCP endpoint (default /mcp, or MCPBASH_HTTP_PATH)',
    '  --stateless         no sessions: each POST stands alone, so replicas can sit behind any',
    '                      load balancer (no GET stream, no roots, elicitation or subscriptions)',
    '  --insecure          allow a non-loopback HOST without MCPBASH_HTTP_TOKEN (only behind',
    '                      something that authenticates clients)',
    '',
    'Also serves GET /healthz (liveness) and /readyz (the checks of `mcp-bash health`).',
    'MCPBASH_HTTP_TOKEN makes every request carry `Authorization: Bearer <token>`.',
    'Stop with SIGTERM: running calls may finish within MCPBASH_SHUTDOWN_TIMEOUT. See docs/REMOTE.md.',
  ].join('\n'),
  async run(options, context) {
    const flags = {
      ...(options.string('http') === undefined ? {} : { http: options.string('http') as string }),
      ...(options.string('path') === undefined ? {} : { path: options.string('path') as string }),
      stateless: options.boolean('stateless'),
      insecure: options.boolean('insecure'),
    };
    const { values } = context.config;
    const listen = httpListenValue(flags, values);
    if (listen === undefined) {
      if (flags.path !== undefined || flags.stateless || flags.insecure) {
        throw new UsageError('--path, --stateless and --insecure go with --http (or MCPBASH_HTTP_LISTEN)', usage);
      }
      return serveStdio(context);
    }
    const settings = resolveHttpSettings(listen, flags, values);
    if ('problem' in settings) throw new CliError(settings.problem, ExitCode.Usage, settings.hint);
    // Loaded only here: a stdio server never pays for the HTTP layer.
    const { serveHttp } = await import('../serve/serve-http.js');
    const code = await serveHttp(context, prepareServing(context), settings);
    // A last resort once every session has ended: a stray handle must not keep a stopped server alive.
    // biome-ignore lint/nursery/noProcessExit: see above
    setTimeout(() => process.exit(code), 2000).unref();
    return code;
  },
};
