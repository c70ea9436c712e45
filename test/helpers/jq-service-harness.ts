/**
 * The warm built-in jq as a test sees it: `mcp-bash jq-service` started from the built
 * binary, and a `jq` command that runs each call through the SDK's client
 * (sdk-sh/lib/jq-service.sh), as a tool does on a host without jq or gojq.
 */
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { chmodSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { builtBinary } from './paths.js';
import { scratchDir } from './scratch.js';
import { sdkDir, sh } from './sdk-harness.js';

export interface ServiceJq {
  /** A `jq` command: `_mcp_jq_service "$@"` with MCPBASH_JQ_SERVICE set. */
  readonly wrapper: string;
  /** MCPBASH_JQ_SERVICE for this service. */
  readonly address: string;
  close(): void;
}

/**
 * Starts the service; `fallback` is what the client runs when the service cannot serve a call
 * (MCPBASH_JSON_TOOL_BIN): `false` proves that a passing call was served by the service.
 * Undefined when mcp-bash is not built.
 */
export async function startServiceJq(fallback: string): Promise<ServiceJq | undefined> {
  const bin = builtBinary();
  if (!bin) return undefined;
  const dir = scratchDir('mcpbash-jq-service-');
  const home = join(dir, 'home');
  mkdirSync(home);
  const token = randomBytes(24).toString('hex');
  const env: NodeJS.ProcessEnv = { ...process.env, HOME: home, MCPBASH_JQ_SERVICE_TOKEN: token };
  for (const name of ['MCPBASH_HOME', 'XDG_DATA_HOME', 'NODE_OPTIONS']) delete env[name];
  const [command, args] = bin.endsWith('.cjs') ? [process.execPath, [bin]] : [bin, []];
  const child = spawn(command, [...args, 'jq-service'], { env, stdio: ['pipe', 'pipe', 'inherit'] });
  const port = await new Promise<string>((resolvePort, reject) => {
    let output = '';
    child.stdout.setEncoding('utf8');
    child.stdout.on('data', (chunk: string) => {
      output += chunk;
      const match = /^listening (\d+)\n/.exec(output);
      if (match) resolvePort(match[1] ?? '');
    });
    child.on('exit', (code) => reject(new Error(`jq-service exited with ${code}: ${output}`)));
  });
  const address = `127.0.0.1:${port}:${token}`;
  const wrapper = join(dir, 'jq');
  writeFileSync(
    wrapper,
    [
      '#!/usr/bin/env bash',
      `export MCPBASH_JQ_SERVICE=${sh(address)} MCPBASH_JSON_TOOL_BIN=${sh(fallback)}`,
      `. ${sh(join(sdkDir, 'lib', 'jq-service.sh'))}`,
      '_mcp_jq_service "$@"',
      '',
    ].join('\n'),
  );
  chmodSync(wrapper, 0o755);
  return { wrapper, address, close: () => child.stdin.end() };
}
