import { type ChildProcessWithoutNullStreams, spawn } from 'node:child_process';
import { binaryCommand } from './paths.js';
import { isolatedEnv } from './run-binary.js';

export type Message = Record<string, unknown> & {
  id?: unknown;
  method?: string;
  result?: unknown;
  error?: { code: number; message: string; data?: unknown };
  params?: Record<string, unknown>;
};

export interface StartOptions {
  /** Served as MCPBASH_PROJECT_ROOT (omit for getting-started mode). */
  projectRoot?: string;
  env?: NodeJS.ProcessEnv;
  cwd?: string;
  args?: string[];
  /**
   * Starts the binary through this command, which gets the binary and its arguments after
   * it (e.g. `['bash', '-c', script, 'wrapper']`): for tests about the server's parent.
   */
  via?: string[];
}

/**
 * The real binary as an MCP server, driven line by line: send raw lines or messages, await
 * responses by id and notifications by method, and observe how the process ends. Every
 * stdout line must be a JSON message; anything else fails `protocolViolations`.
 */
export class McpProcess {
  readonly child: ChildProcessWithoutNullStreams;
  readonly messages: Message[] = [];
  /** Every stdout line as received (ids beyond 2^53 survive only here). */
  readonly lines: string[] = [];
  readonly protocolViolations: string[] = [];
  stderr = '';
  private buffered = '';
  private nextId = 1;
  private waiters: Array<{ test: (m: Message) => boolean; resolve: (m: Message) => void }> = [];
  readonly exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;

  constructor(options: StartOptions = {}) {
    const { command, prefix } = binaryCommand();
    const env = options.env ?? isolatedEnv();
    if (options.projectRoot) env.MCPBASH_PROJECT_ROOT = options.projectRoot;
    const argv = [command, ...prefix, ...(options.args ?? [])];
    const [program, ...rest] = options.via ? [...options.via, ...argv] : argv;
    this.child = spawn(program as string, rest, { env, cwd: options.cwd, stdio: ['pipe', 'pipe', 'pipe'] });
    this.child.stdout.on('data', (chunk: Buffer) => this.onStdout(chunk.toString('utf8')));
    this.child.stderr.on('data', (chunk: Buffer) => {
      this.stderr += chunk.toString('utf8');
    });
    this.child.stdin.on('error', () => {});
    this.exited = new Promise((resolve) => this.child.on('close', (code, signal) => resolve({ code, signal })));
  }

  private onStdout(text: string): void {
    this.buffered += text;
    let newline = this.buffered.indexOf('\n');
    while (newline !== -1) {
      const line = this.buffered.slice(0, newline);
      this.buffered = this.buffered.slice(newline + 1);
      newline = this.buffered.indexOf('\n');
      this.lines.push(line);
      let message: Message;
      try {
        message = JSON.parse(line) as Message;
      } catch {
        this.protocolViolations.push(line);
        continue;
      }
      // A batch reply is kept as one entry (an array); tests look for it with Array.isArray.
      this.messages.push(message);
      this.waiters = this.waiters.filter((waiter) => {
        if (!waiter.test(message)) return true;
        waiter.resolve(message);
        return false;
      });
    }
  }

  /** Writes a raw line (a newline is added unless `noNewline`). */
  writeRaw(data: string | Buffer, noNewline = false): void {
    this.child.stdin.write(data);
    if (!noNewline) this.child.stdin.write('\n');
  }

  send(message: unknown): void {
    this.writeRaw(JSON.stringify(message));
  }

  /** Sends a request with a fresh numeric id (or the given one) and awaits its response. */
  request(method: string, params?: unknown, id?: string | number, timeoutMs = 15_000): Promise<Message> {
    const requestId = id ?? this.nextId++;
    const message: Record<string, unknown> = { jsonrpc: '2.0', id: requestId, method };
    if (params !== undefined) message.params = params;
    const response = this.waitFor(
      (m) => m.id === requestId && m.method === undefined && !Array.isArray(m),
      timeoutMs,
      `response to ${method} #${String(requestId)}`,
    );
    this.send(message);
    return response;
  }

  notify(method: string, params?: unknown): void {
    const message: Record<string, unknown> = { jsonrpc: '2.0', method };
    if (params !== undefined) message.params = params;
    this.send(message);
  }

  /** The first message, already received or future, that passes `test`. */
  waitFor(test: (m: Message) => boolean, timeoutMs = 15_000, what = 'a message'): Promise<Message> {
    const found = this.messages.find(test);
    if (found) return Promise.resolve(found);
    return new Promise((resolve, reject) => {
      const timer = setTimeout(
        () =>
          reject(new Error(`timed out after ${timeoutMs} ms waiting for ${what}; stderr: ${this.stderr.slice(-2000)}`)),
        timeoutMs,
      );
      this.waiters.push({
        test,
        resolve: (m) => {
          clearTimeout(timer);
          resolve(m);
        },
      });
    });
  }

  /** Resolves once the server's stderr so far matches `pattern` (checked on every chunk). */
  waitForStderr(pattern: RegExp, timeoutMs = 15_000): Promise<void> {
    if (pattern.test(this.stderr)) return Promise.resolve();
    return new Promise((resolve, reject) => {
      const onData = () => {
        if (!pattern.test(this.stderr)) return;
        clearTimeout(timer);
        this.child.stderr.off('data', onData);
        resolve();
      };
      const timer = setTimeout(() => {
        this.child.stderr.off('data', onData);
        reject(
          new Error(`timed out after ${timeoutMs} ms waiting for ${pattern} on stderr: ${this.stderr.slice(-2000)}`),
        );
      }, timeoutMs);
      // Registered after the constructor's listener, so this.stderr already holds the chunk.
      this.child.stderr.on('data', onData);
    });
  }

  notifications(method: string): Message[] {
    return this.messages.filter((m) => m.method === method && m.id === undefined);
  }

  /** initialize + notifications/initialized; resolves with the initialize result. */
  async initialize(
    protocolVersion = '2025-11-25',
    capabilities: Record<string, unknown> = {},
  ): Promise<Record<string, unknown>> {
    const response = await this.request('initialize', {
      protocolVersion,
      capabilities,
      clientInfo: { name: 'mcp-bash-tests', version: '1.0.0' },
    });
    if (response.error) throw new Error(`initialize failed: ${JSON.stringify(response.error)}`);
    this.notify('notifications/initialized');
    return response.result as Record<string, unknown>;
  }

  closeInput(): void {
    this.child.stdin.end();
  }

  /** Closes stdin and waits for the process to end (killing it after `timeoutMs`). */
  async close(timeoutMs = 10_000): Promise<{ code: number | null; signal: NodeJS.Signals | null }> {
    this.closeInput();
    const timer = setTimeout(() => this.child.kill('SIGKILL'), timeoutMs);
    const result = await this.exited;
    clearTimeout(timer);
    return result;
  }
}

/** Starts a server and initializes it. */
export async function startInitialized(
  options: StartOptions & { protocolVersion?: string; capabilities?: Record<string, unknown> } = {},
): Promise<McpProcess> {
  const server = new McpProcess(options);
  await server.initialize(options.protocolVersion, options.capabilities);
  return server;
}
