import { type ChildProcess, spawn } from 'node:child_process';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { Test } from 'tap';
import { fixtureProject } from './fixtures.js';
import { binaryCommand } from './paths.js';
import { toolEnv } from './run-binary.js';

/** A running `mcp-bash serve --http` child. */
export interface HttpServerProcess {
  readonly child: ChildProcess;
  /** The endpoint it printed (`http://127.0.0.1:PORT/mcp`). */
  readonly url: string;
  /** `http://127.0.0.1:PORT`, for /healthz and /readyz. */
  readonly origin: string;
  stderr(): string;
  /** Sends `signal` (default SIGTERM) and resolves with the exit status. */
  stop(signal?: NodeJS.Signals): Promise<number | null>;
  /** Resolves with the exit status once the process has exited. */
  readonly exited: Promise<number | null>;
}

export interface StartHttpOptions {
  readonly env: NodeJS.ProcessEnv;
  /** Arguments after `serve` (default `--http 127.0.0.1:0`). */
  readonly args?: readonly string[];
  readonly timeoutMs?: number;
}

const LISTENING = /^mcp-bash: listening on (http:\/\/\S+)$/m;

/**
 * Starts the binary as `mcp-bash serve --http 127.0.0.1:0` and waits for its one line
 * `mcp-bash: listening on URL` on stderr; rejects (with stderr) if it exits first.
 * The server is killed (SIGKILL) when `t` ends, whatever the test did with it.
 */
export function startHttpServer(t: Test, options: StartHttpOptions): Promise<HttpServerProcess> {
  const { command, prefix } = binaryCommand();
  const child = spawn(command, [...prefix, 'serve', ...(options.args ?? ['--http', '127.0.0.1:0'])], {
    env: options.env,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stderr = '';
  let stdout = '';
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  const stop = (signal: NodeJS.Signals = 'SIGTERM') => {
    if (child.exitCode === null && child.signalCode === null) child.kill(signal);
    return exited;
  };
  t.teardown(() => stop('SIGKILL'));
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`serve --http did not start in time; stderr:\n${stderr}`));
    }, options.timeoutMs ?? 20_000);
    child.stdout?.on('data', (chunk: Buffer) => {
      stdout += chunk.toString();
    });
    child.stderr?.on('data', (chunk: Buffer) => {
      stderr += chunk.toString();
      const match = LISTENING.exec(stderr);
      if (!match) return;
      clearTimeout(timer);
      const url = match[1] as string;
      resolve({
        child,
        url,
        origin: new URL(url).origin,
        stderr: () => stderr,
        stop,
        exited,
      });
    });
    void exited.then((code) => {
      clearTimeout(timer);
      reject(new Error(`serve --http exited with ${code} before listening; stderr:\n${stderr}\nstdout:\n${stdout}`));
    });
  });
}

/**
 * A fresh copy of the `tools` fixture served on `--http 127.0.0.1:0` with `flags` after it,
 * `env` added to the tools' environment. Stopped when `t` ends.
 */
export function startToolsServer(
  t: Test,
  env: NodeJS.ProcessEnv = {},
  flags: readonly string[] = [],
): Promise<HttpServerProcess> {
  return startHttpServer(t, {
    env: toolEnv({ MCPBASH_PROJECT_ROOT: fixtureProject('tools'), ...env }),
    args: ['--http', '127.0.0.1:0', ...flags],
  });
}

export interface HttpClientOptions {
  readonly capabilities?: ConstructorParameters<typeof Client>[1];
  readonly headers?: Record<string, string>;
  readonly name?: string;
}

/** The official SDK client over its StreamableHTTPClientTransport. */
export async function connectHttpClient(
  url: string,
  options: HttpClientOptions = {},
): Promise<{ client: Client; transport: StreamableHTTPClientTransport }> {
  const transport = new StreamableHTTPClientTransport(new URL(url), {
    ...(options.headers ? { requestInit: { headers: options.headers } } : {}),
  });
  const client = new Client(
    { name: options.name ?? 'mcp-bash-http-test', version: '1.0.0' },
    options.capabilities ?? { capabilities: {} },
  );
  await client.connect(transport);
  return { client, transport };
}

/** Headers of a well-behaved client's POST, plus `extra`. */
export function postHeaders(extra: Record<string, string> = {}): Record<string, string> {
  return { 'content-type': 'application/json', accept: 'application/json, text/event-stream', ...extra };
}

/** An initialize request body at `version`. */
export function initializeBody(version = '2025-11-25', id: number | string = 1): string {
  return JSON.stringify({
    jsonrpc: '2.0',
    id,
    method: 'initialize',
    params: { protocolVersion: version, capabilities: {}, clientInfo: { name: 'raw', version: '1' } },
  });
}

/** Opens a session by hand (initialize + initialized); returns its id. */
export async function rawSession(url: string, headers: Record<string, string> = {}): Promise<string> {
  const init = await fetch(url, { method: 'POST', headers: postHeaders(headers), body: initializeBody() });
  if (init.status !== 200) throw new Error(`initialize: ${init.status} ${await init.text()}`);
  await init.text();
  const id = init.headers.get('mcp-session-id');
  if (!id) throw new Error('initialize gave no Mcp-Session-Id');
  const done = await fetch(url, {
    method: 'POST',
    headers: postHeaders({ ...headers, 'mcp-session-id': id, 'mcp-protocol-version': '2025-11-25' }),
    body: JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' }),
  });
  await done.text();
  return id;
}

/**
 * Reads a streamed answer until `done(textSoFar)` holds (or the stream ends); the stream
 * stays open for more reads. Resolves with everything read so far.
 */
export async function readUntil(
  reader: ReadableStreamDefaultReader<Uint8Array>,
  done: (text: string) => boolean,
  sofar = '',
): Promise<string> {
  const decoder = new TextDecoder();
  let text = sofar;
  while (!done(text)) {
    const { value, done: ended } = await reader.read();
    if (ended) break;
    text += decoder.decode(value, { stream: true });
  }
  return text;
}

/** The JSON-RPC messages of an SSE text (its `data:` lines that hold JSON). */
export function sseMessages(text: string): Array<Record<string, unknown>> {
  return text
    .split('\n')
    .filter((line) => line.startsWith('data: ') && line.length > 'data: '.length + 1)
    .map((line) => JSON.parse(line.slice('data: '.length)) as Record<string, unknown>);
}

/** The `id:` values of an SSE text, in order; `withData`: only of events that carry a message. */
export function sseIds(text: string, withData = false): string[] {
  const ids: string[] = [];
  for (const event of text.split('\n\n')) {
    const lines = event.split('\n');
    const id = lines.find((line) => line.startsWith('id: '));
    const data = lines.some((line) => line.startsWith('data: ') && line.length > 'data: '.length + 1);
    if (id !== undefined && (data || !withData)) ids.push(id.slice('id: '.length));
  }
  return ids;
}
