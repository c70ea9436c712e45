import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import { binaryCommand } from './paths.js';

/**
 * Wraps a transport so the client's initialize asks for `version` instead of its newest:
 * the official Client always offers its latest version, and accepts any it supports back.
 */
class VersionPinningTransport implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: (message: JSONRPCMessage) => void;

  constructor(
    private readonly inner: Transport,
    private readonly version: string | undefined,
  ) {
    inner.onclose = () => this.onclose?.();
    inner.onerror = (error) => this.onerror?.(error);
    inner.onmessage = (message) => this.onmessage?.(message);
  }

  start(): Promise<void> {
    return this.inner.start();
  }

  send(message: JSONRPCMessage): Promise<void> {
    if (this.version && 'method' in message && message.method === 'initialize' && message.params) {
      return this.inner.send({
        ...message,
        params: { ...message.params, protocolVersion: this.version },
      } as JSONRPCMessage);
    }
    return this.inner.send(message);
  }

  close(): Promise<void> {
    return this.inner.close();
  }
}

export interface SdkClientOptions {
  readonly env: Record<string, string>;
  readonly protocolVersion?: string;
  readonly capabilities?: ConstructorParameters<typeof Client>[1];
  readonly cwd?: string;
  /** Starts this instead of the binary under test (an unpacked bundle's server, say). */
  readonly launch?: { readonly command: string; readonly args: readonly string[] };
}

/** The official MCP TypeScript SDK client, connected to the binary over stdio. */
export async function connectSdkClient(options: SdkClientOptions): Promise<{ client: Client; stderr: () => string }> {
  const { command, prefix } = binaryCommand();
  const stdio = new StdioClientTransport({
    command: options.launch?.command ?? command,
    args: options.launch ? [...options.launch.args] : prefix,
    env: options.env,
    stderr: 'pipe',
    ...(options.cwd ? { cwd: options.cwd } : {}),
  });
  let stderr = '';
  stdio.stderr?.on('data', (chunk: Buffer) => {
    stderr += chunk.toString();
  });
  const client = new Client(
    { name: 'mcp-bash-interop-test', version: '1.0.0' },
    options.capabilities ?? { capabilities: {} },
  );
  await client.connect(new VersionPinningTransport(stdio, options.protocolVersion));
  return { client, stderr: () => stderr };
}

/** The environment the SDK transport should pass (it does not inherit ours by default). */
export function sdkEnv(env: NodeJS.ProcessEnv): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [key, value] of Object.entries(env)) if (value !== undefined) out[key] = value;
  return out;
}
