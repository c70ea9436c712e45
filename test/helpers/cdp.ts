/**
 * A small Chrome DevTools Protocol client for headless Chromium, over `--remote-debugging-pipe`
 * (NUL-separated JSON on fds 3 and 4: no WebSocket, no port). One browser per test file;
 * pages and their out-of-process iframes each get a flattened session.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync, rmSync, writeFileSync } from 'node:fs';
import { delimiter, join } from 'node:path';
import type { Readable, Writable } from 'node:stream';
import { scratchDir } from './scratch.js';

/** A CDP event (or a response) as it arrives. */
export interface CdpMessage {
  readonly id?: number;
  readonly method?: string;
  readonly params?: Record<string, unknown>;
  readonly result?: Record<string, unknown>;
  readonly error?: { code: number; message: string };
  readonly sessionId?: string;
}

/** Chromium on PATH (Debian's `chromium`, or another build), or CHROMIUM_BIN. */
export function findChromium(env: NodeJS.ProcessEnv = process.env): string | undefined {
  if (env.CHROMIUM_BIN && existsSync(env.CHROMIUM_BIN)) return env.CHROMIUM_BIN;
  for (const name of ['chromium', 'chromium-browser', 'google-chrome']) {
    for (const dir of (env.PATH ?? '').split(delimiter)) {
      if (dir !== '' && existsSync(join(dir, name))) return join(dir, name);
    }
  }
  return undefined;
}

/**
 * The flags of an offline, throw-away browser: headless, no sandbox (root in containers),
 * and none of the background traffic (updates, sync, QUIC probes) a closed network floods on.
 */
function chromiumArgs(profile: string): string[] {
  return [
    '--headless',
    '--no-sandbox',
    '--disable-gpu',
    '--disable-quic',
    '--no-first-run',
    '--no-default-browser-check',
    '--disable-background-networking',
    '--disable-component-update',
    '--disable-sync',
    '--disable-extensions',
    `--user-data-dir=${profile}`,
    '--remote-debugging-pipe',
    'about:blank',
  ];
}

export class CdpBrowser {
  private nextId = 0;
  private buffered = '';
  private readonly pending = new Map<number, (message: CdpMessage) => void>();
  private readonly listeners = new Set<(message: CdpMessage) => void>();
  readonly events: CdpMessage[] = [];
  readonly exited: Promise<number | null>;

  private constructor(
    private readonly child: ChildProcess,
    private readonly profile: string,
  ) {
    const output = child.stdio[4] as Readable;
    output.on('data', (chunk: Buffer) => this.onData(chunk.toString('utf8')));
    this.exited = new Promise((resolve) => child.on('exit', (code) => resolve(code)));
  }

  static launch(executable: string): CdpBrowser {
    const profile = scratchDir('mcpbash-chromium-');
    const child = spawn(executable, chromiumArgs(profile), { stdio: ['ignore', 'ignore', 'ignore', 'pipe', 'pipe'] });
    return new CdpBrowser(child, profile);
  }

  private onData(text: string): void {
    this.buffered += text;
    let end = this.buffered.indexOf('\0');
    while (end !== -1) {
      const message = JSON.parse(this.buffered.slice(0, end)) as CdpMessage;
      this.buffered = this.buffered.slice(end + 1);
      end = this.buffered.indexOf('\0');
      const waiter = message.id === undefined ? undefined : this.pending.get(message.id);
      if (waiter && message.id !== undefined) {
        this.pending.delete(message.id);
        waiter(message);
        continue;
      }
      this.events.push(message);
      for (const listener of this.listeners) listener(message);
    }
  }

  /** Sends a command (to a session, when given) and resolves with its result; errors reject. */
  send(method: string, params: Record<string, unknown> = {}, sessionId?: string): Promise<Record<string, unknown>> {
    const id = ++this.nextId;
    const input = this.child.stdio[3] as Writable;
    return new Promise((resolve, reject) => {
      this.pending.set(id, (message) => {
        if (message.error) reject(new Error(`${method}: ${message.error.message}`));
        else resolve(message.result ?? {});
      });
      input.write(`${JSON.stringify({ id, method, params, ...(sessionId ? { sessionId } : {}) })}\0`);
    });
  }

  /** The first event (past or future) that `test` accepts, within `timeoutMs`. */
  waitForEvent(test: (message: CdpMessage) => boolean, timeoutMs: number, what: string): Promise<CdpMessage> {
    const seen = this.events.find(test);
    if (seen) return Promise.resolve(seen);
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        this.listeners.delete(listener);
        reject(new Error(`timed out after ${timeoutMs} ms waiting for ${what}`));
      }, timeoutMs);
      const listener = (message: CdpMessage) => {
        if (!test(message)) return;
        clearTimeout(timer);
        this.listeners.delete(listener);
        resolve(message);
      };
      this.listeners.add(listener);
    });
  }

  /** A new tab with its session; iframes in other processes attach to it automatically. */
  async newPage(): Promise<CdpPage> {
    const { targetId } = (await this.send('Target.createTarget', { url: 'about:blank' })) as { targetId: string };
    const { sessionId } = (await this.send('Target.attachToTarget', { targetId, flatten: true })) as {
      sessionId: string;
    };
    const page = new CdpPage(this, sessionId, targetId);
    // Iframes start paused until their console and exceptions are watched (resumeFrame).
    this.listeners.add((message) => {
      if (message.method === 'Target.attachedToTarget' && message.sessionId === sessionId)
        void this.resumeFrame(message.params?.sessionId as string);
    });
    await this.send(
      'Target.setAutoAttach',
      { autoAttach: true, waitForDebuggerOnStart: true, flatten: true },
      sessionId,
    );
    await Promise.all(
      ['Page.enable', 'Runtime.enable', 'Log.enable'].map((method) => this.send(method, {}, sessionId)),
    );
    return page;
  }

  /** Enables Runtime and Log in a new frame's session, then lets it run. */
  private async resumeFrame(sessionId: string): Promise<void> {
    try {
      await Promise.all([this.send('Runtime.enable', {}, sessionId), this.send('Log.enable', {}, sessionId)]);
      await this.send('Runtime.runIfWaitingForDebugger', {}, sessionId);
    } catch {
      // the frame went away before it ran
    }
  }

  /** Uncaught exceptions, console errors and CSP reports of a session. */
  problems(sessionId: string): string[] {
    return this.events.flatMap((message) => {
      if (message.sessionId !== sessionId) return [];
      const params = message.params as Record<string, any> | undefined;
      if (message.method === 'Runtime.exceptionThrown')
        return [String(params?.exceptionDetails?.exception?.description ?? params?.exceptionDetails?.text)];
      if (message.method === 'Log.entryAdded' && params?.entry?.level === 'error') return [String(params.entry.text)];
      if (message.method === 'Runtime.consoleAPICalled' && params?.type === 'error')
        return [
          JSON.stringify(
            params.args?.map((arg: { value?: unknown; description?: string }) => arg.value ?? arg.description),
          ),
        ];
      return [];
    });
  }

  /** Closes the browser (killing it if it does not go) and removes its profile. */
  async close(): Promise<void> {
    const exited = this.exited;
    this.send('Browser.close').catch(() => {});
    const timer = setTimeout(() => this.child.kill('SIGKILL'), 5000);
    await exited;
    clearTimeout(timer);
    rmSync(this.profile, { recursive: true, force: true });
  }
}

export class CdpPage {
  constructor(
    readonly browser: CdpBrowser,
    readonly sessionId: string,
    readonly targetId: string,
  ) {}

  /** Evaluates an expression (awaiting a promise) in a session (default: the page) and returns its value. */
  async evaluate<T>(expression: string, sessionId: string = this.sessionId): Promise<T> {
    const reply = (await this.browser.send(
      'Runtime.evaluate',
      { expression, awaitPromise: true, returnByValue: true },
      sessionId,
    )) as { result: { value?: unknown }; exceptionDetails?: { exception?: { description?: string }; text: string } };
    if (reply.exceptionDetails)
      throw new Error(reply.exceptionDetails.exception?.description ?? reply.exceptionDetails.text);
    return reply.result.value as T;
  }

  /** Navigates and resolves once the load event fired. */
  async navigate(url: string): Promise<void> {
    const before = this.browser.events.length;
    await this.browser.send('Page.navigate', { url }, this.sessionId);
    await this.browser.waitForEvent(
      (message) =>
        message.method === 'Page.loadEventFired' &&
        message.sessionId === this.sessionId &&
        this.browser.events.indexOf(message) >= before,
      10_000,
      `the load of ${url}`,
    );
  }

  /**
   * The session of the out-of-process iframe attached after event number `since` (take
   * `browser.events.length` before creating it), once its document at `urlPrefix` has loaded.
   */
  async frameSession(urlPrefix: string, since: number): Promise<string> {
    const events = this.browser.events;
    const attached = await this.browser.waitForEvent(
      (message) => {
        const info = message.params?.targetInfo as { type?: string } | undefined;
        return (
          message.method === 'Target.attachedToTarget' &&
          info?.type === 'iframe' &&
          message.sessionId === this.sessionId &&
          events.indexOf(message) >= since
        );
      },
      10_000,
      'an iframe target',
    );
    const session = attached.params?.sessionId as string;
    await this.waitFor(
      `location.href.startsWith(${JSON.stringify(urlPrefix)}) && document.readyState === 'complete'`,
      session,
    );
    return session;
  }

  /**
   * Resolves once `expression` is truthy in the session (checked every 20 ms: a rendering
   * condition, not a fixed delay), failing after `timeoutMs` with `what` and the last value.
   */
  async waitFor(expression: string, sessionId: string = this.sessionId, timeoutMs = 10_000): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      let value: unknown;
      try {
        value = await this.evaluate<unknown>(`Boolean(${expression})`, sessionId);
      } catch {
        value = false;
      }
      if (value === true) return;
      if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms waiting for ${expression}`);
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  }

  /** A PNG of the page (iframes included). */
  async screenshot(path: string): Promise<void> {
    const { data } = (await this.browser.send('Page.captureScreenshot', { format: 'png' }, this.sessionId)) as {
      data: string;
    };
    writeFileSync(path, Buffer.from(data, 'base64'));
  }
}
