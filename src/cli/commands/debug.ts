import { mkdtempSync } from 'node:fs';
import { join } from 'node:path';
import { loadConfig } from '../../config/config.js';
import { SERVER_PARTS } from '../../config/setting.js';
import { pathsConfig } from '../../config/slices.js';
import { tempRoot } from '../../project/state-dir.js';
import { type ParsedCommand, runParsed } from '../command.js';

const usage = 'mcp-bash debug';

/** `mcp-bash debug`: the server, with every message logged (secrets redacted) and its state kept. */

export const command: ParsedCommand = {
  name: 'debug',
  summary: 'Run the MCP server with payload logging to a kept state dir',
  usage,
  options: {},
  reads: SERVER_PARTS,
  details: [
    'Runs the server like `mcp-bash` does, with MCPBASH_DEBUG_PAYLOADS=true, MCPBASH_PRESERVE_STATE=true',
    'and a fresh MCPBASH_STATE_DIR (mode 0700) under MCPBASH_TMP_ROOT or TMPDIR, whose path is printed',
    'on stderr. <state dir>/payload.debug.log gets one line per message in or out:',
    '  epoch|category|key|status|payload',
    'category: request, response, notification-in, notification-out, server-request,',
    'client-response, batch, invalid; key: the id; status: the method, or ok/error.',
    'Values under token, secret, password, authorization, api key and cookie keys, and',
    '"Bearer ..." strings, are redacted (best effort). Per-call tool directories are kept too.',
    'Use it as the command of your MCP client, then read the log.',
  ].join('\n'),
  async run(_options, context) {
    const { io } = context;
    const tmpRoot = tempRoot(pathsConfig(context.config.values));
    // mkdtemp creates the directory with mode 0700.
    const stateDir = mkdtempSync(join(tmpRoot, 'mcpbash.debug.'));
    io.stderr.write(`mcp-bash debug: logging to ${join(stateDir, 'payload.debug.log')}\n`);
    const env = {
      ...io.env,
      MCPBASH_DEBUG_PAYLOADS: 'true',
      MCPBASH_PRESERVE_STATE: 'true',
      MCPBASH_STATE_DIR: stateDir,
    };
    const serve = (await import('./serve.js')).command;
    return runParsed(serve, [], { ...context, io: { ...io, env }, config: loadConfig(env) });
  },
};
