import { resolve } from 'node:path';
import { CliError, ExitCode } from '../../cli/cli-error.js';
import type { CliIo, ParsedCommand } from '../../cli/command.js';
import { formatBytes } from '../bundle/bundle-summary.js';
import { readPublishableBundle } from './bundle-manifest.js';
import {
  DEFAULT_REGISTRY_URL,
  interpretAnswer,
  registryBaseUrl,
  type UploadRequest,
  upload,
  uploadRequest,
} from './registry-upload.js';

const usage = 'mcp-bash publish <file.mcpb> [--dry-run] [--token T] [--verbose]';

function showRequest(io: CliIo, request: UploadRequest, bytes: number): void {
  io.stderr.write(`POST ${request.url} (${formatBytes(bytes)})\n`);
  for (const [name, value] of Object.entries(request.headers))
    io.stderr.write(`  ${name}: ${name === 'Authorization' ? 'Bearer ***' : value}\n`);
}

/** `mcp-bash publish`: uploads a bundle to an MCP registry. */

export const command: ParsedCommand = {
  name: 'publish',
  reads: ['cli:publish'],
  summary: 'Upload an .mcpb bundle to an MCP registry (MCP_REGISTRY_URL)',
  usage,
  options: { string: ['token'], boolean: ['dry-run', 'verbose'] },
  positionals: [{ name: 'file', missing: 'the bundle file is required' }],
  details: [
    'Arguments:',
    '  <file.mcpb>   a bundle made by `mcp-bash bundle`',
    'Options:',
    '  --token T     the registry token (default: MCP_REGISTRY_TOKEN)',
    '  --dry-run     check the bundle and show the request, send nothing (no token needed)',
    '  --verbose     show the request (the token masked) and the registry answer',
    '',
    `Sends POST $MCP_REGISTRY_URL/api/v1/bundles (default ${DEFAULT_REGISTRY_URL}) with`,
    'Authorization: Bearer <token>, Content-Type: application/octet-stream and X-Bundle-Name.',
    'Exit status: 0 published (HTTP 200/201) or dry run passed, 1 the bundle or the registry',
    'refused (401 token, 409 version exists, 422 invalid bundle), 2 a malformed command line or',
    'no token.',
  ].join('\n'),
  async run(options, context) {
    const { io } = context;
    const bundle = readPublishableBundle(resolve(io.cwd, options.positionals[0] as string));
    if (!bundle.author)
      io.stderr.write('mcp-bash publish: warning: the manifest names no author; registries and clients expect one\n');
    const token = options.string('token') ?? context.config.values.MCP_REGISTRY_TOKEN;
    const registry = registryBaseUrl(context.config.values.MCP_REGISTRY_URL);
    if (options.boolean('dry-run')) {
      const request = uploadRequest(registry, token ?? '(none)', bundle);
      showRequest(io, request, bundle.data.length);
      io.stdout.write(
        `Dry run: ${bundle.name}@${bundle.version} is ready to publish to ` +
          `${registry}${token ? '' : ' (set MCP_REGISTRY_TOKEN or --token to send it)'}\n`,
      );
      return ExitCode.Ok;
    }
    if (!token) throw new CliError('no registry token', ExitCode.Usage, 'Pass --token T or set MCP_REGISTRY_TOKEN.');
    const request = uploadRequest(registry, token, bundle);
    if (options.boolean('verbose')) showRequest(io, request, bundle.data.length);
    const answer = await upload(request, bundle);
    if (options.boolean('verbose')) io.stderr.write(`HTTP ${answer.status}: ${answer.body.slice(0, 2000)}\n`);
    io.stdout.write(`${interpretAnswer(answer.status, answer.body, bundle)}\n`);
    return ExitCode.Ok;
  },
};
