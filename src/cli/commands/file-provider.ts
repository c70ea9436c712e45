import { delimiter } from 'node:path';
import { readFileUri } from '../../providers/file-provider.js';
import { ExitCode } from '../cli-error.js';
import type { ParsedCommand } from '../command.js';

/**
 * `mcp-bash file-provider URI`: the built-in file provider as a program, for
 * assets/providers/file.sh (1.x projects and providers that run it directly). The server
 * reads file:// URIs with the same code in-process (src/providers/file-provider.ts).
 */
export const command: ParsedCommand = {
  name: 'file-provider',
  summary: 'Internal: the built-in file:// resource provider (providers/file.sh runs it)',
  usage: 'mcp-bash file-provider URI',
  options: {},
  positionals: [{ name: 'uri', missing: 'a file:// URI is required' }],
  details: [
    'Prints the bytes of the file a file:// URI names, within the allowed roots: the first',
    `non-empty list (separated by "${delimiter}") of MCP_RESOURCES_ROOTS, MCPBASH_RESOURCES_DIR,`,
    'MCPBASH_PROJECT_ROOT. Exit status: 0 ok; 1 larger than MCPBASH_MAX_RESOURCE_BYTES; 2 outside',
    'the roots or a symbolic link; 3 not found, not a regular file or unreadable; 4 not a file:// URI.',
  ].join('\n'),
  async run(line, { io, config }) {
    const maxBytes = config.values.MCPBASH_MAX_RESOURCE_BYTES;
    const outcome = await readFileUri({
      uri: line.positionals[0] as string,
      cwd: io.cwd,
      rootLists: ['MCP_RESOURCES_ROOTS', 'MCPBASH_RESOURCES_DIR', 'MCPBASH_PROJECT_ROOT'].map(
        (name) => io.env[name]?.split(delimiter) ?? [],
      ),
      maxBytes,
    });
    if (outcome.overflow) {
      io.stderr.write(`file provider: the file is larger than MCPBASH_MAX_RESOURCE_BYTES (${maxBytes} bytes)\n`);
      return ExitCode.Failure;
    }
    io.stderr.write(outcome.stderr);
    await new Promise<void>((resolve) => io.stdout.write(outcome.stdout, () => resolve()));
    return outcome.exitCode;
  },
};
