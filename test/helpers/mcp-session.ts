export type Message = Record<string, unknown> & {
  id?: unknown;
  method?: string;
  result?: unknown;
  error?: { code: number; message: string; data?: unknown };
  params?: Record<string, unknown>;
};

export interface Ended {
  code: number | null;
  signal: NodeJS.Signals | null;
}

/**
 * A client's view of one MCP server session, line by line: send raw lines or messages,
 * await responses by id and notifications by method, and read the server's stderr. Every
 * stdout line must be a JSON message; anything else lands in `protocolViolations`. The
 * server is a child process (McpProcess) or runs in this process (InProcessServer).
 */
export abstract class McpSession {
  readonly messages: Message[] = [];
  /** Every stdout line as received (ids beyond 2^53 survive only here). */
  readonly lines: string[] = [];
  readonly protocolViolations: string[] = [];
  stderr = '';
  abstract readonly exited: Promise<Ended>;
  /** Whether the server is still running. */
  abstract readonly running: boolean;
  private buffered = '';
  private nextId = 1;
  private waiters: Array<{ test: (m: Message) => boolean; resolve: (m: Message) => void }> = [];
  private stderrListeners: Array<() => void> = [];

  /** Writes to the server's stdin. */
  protected abstract write(data: string | Buffer): void;
  /** Ends the server's stdin. */
  abstract closeInput(): void;
  /** Stops the server at once (the end of `close` when it does not exit by itself). */
  protected abstract kill(): void;

  protected onStdout(text: string): void {
    // Only the new text is searched for line ends: a multi-megabyte line arrives in many
    // chunks, and searching the whole buffer each time costs seconds.
    let start = 0;
    let newline = text.indexOf('\n');
    while (newline !== -1) {
      const line = this.buffered + text.slice(start, newline);
      this.buffered = '';
      start = newline + 1;
      newline = text.indexOf('\n', start);
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
    this.buffered += text.slice(start);
  }

  protected onStderr(text: string): void {
    this.stderr += text;
    for (const listener of [...this.stderrListeners]) listener();
  }

  /** Writes a raw line (a newline is added unless `noNewline`). */
  writeRaw(data: string | Buffer, noNewline = false): void {
    this.write(data);
    if (!noNewline) this.write('\n');
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
      const stop = () => {
        clearTimeout(timer);
        this.stderrListeners = this.stderrListeners.filter((listener) => listener !== onData);
      };
      const onData = () => {
        if (!pattern.test(this.stderr)) return;
        stop();
        resolve();
      };
      const timer = setTimeout(() => {
        stop();
        reject(
          new Error(`timed out after ${timeoutMs} ms waiting for ${pattern} on stderr: ${this.stderr.slice(-2000)}`),
        );
      }, timeoutMs);
      this.stderrListeners.push(onData);
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

  /**
   * Closes stdin and waits for the server to end (stopping it after `timeoutMs`): after
   * this everything it wrote has arrived, so a test can assert what it never sent.
   */
  async close(timeoutMs = 10_000): Promise<Ended> {
    this.closeInput();
    const timer = setTimeout(() => this.kill(), timeoutMs);
    const result = await this.exited;
    clearTimeout(timer);
    return result;
  }
}

/** What an initialize handshake may be asked to send. */
export interface InitOptions {
  protocolVersion?: string;
  capabilities?: Record<string, unknown>;
}

/** Runs the initialize handshake on a fresh session and hands the session back. */
export async function initialized<S extends McpSession>(session: S, options: InitOptions): Promise<S> {
  await session.initialize(options.protocolVersion, options.capabilities);
  return session;
}
