import { JqService } from '../../json/jq-service-server.js';
import { loadBuiltinJq } from '../builtin-jq.js';
import { CliError } from '../cli-error.js';
import type { ParsedCommand } from '../command.js';

/**
 * The warm built-in jq that a server starts once (src/runner/jq-service-process.ts) for tools
 * on hosts without jq or gojq. Not for people: it prints `listening <port>` and serves until
 * its stdin closes, which happens when the server that started it exits for any reason.
 */
export const command: ParsedCommand = {
  name: 'jq-service',
  summary: 'Internal: the warm built-in jq a server starts for its tools',
  usage: 'mcp-bash jq-service   (token in MCPBASH_JQ_SERVICE_TOKEN; started by the server)',
  // The server starts it with no arguments.
  options: {},
  async run(_options, context) {
    const { io } = context;
    const token = io.env.MCPBASH_JQ_SERVICE_TOKEN ?? '';
    if (token.length < 32) throw new CliError('MCPBASH_JQ_SERVICE_TOKEN must hold at least 32 characters', 2);
    const home = context.frameworkHome().root;
    const service = new JqService({ token, engine: () => loadBuiltinJq(home, { oneShot: false }) });
    const port = await service.listen();
    io.stdout.write(`listening ${port}\n`);
    await new Promise<void>((resolve) => {
      io.stdin.on('end', resolve);
      io.stdin.on('close', resolve);
      io.stdin.on('error', resolve);
      io.stdin.resume();
    });
    service.close();
    return 0;
  },
};
