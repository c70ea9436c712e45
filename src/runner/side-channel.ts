import {
  closeSync,
  existsSync,
  type FSWatcher,
  fstatSync,
  openSync,
  readFileSync,
  readSync,
  rmSync,
  watch,
} from 'node:fs';
import type { CallPaths } from './call-directory.js';

/** What the tool wrote, handed to the invocation as it happens. */
export interface SideChannelHandlers {
  progress(line: Record<string, unknown>): void;
  log(line: Record<string, unknown>): void;
  /** The progress stream changed (any write or touch): activity for idle timeouts. */
  activity(): void;
  /** A complete elicitation request appeared (it has been removed from disk). */
  elicitation?(request: unknown): void;
  /** A complete sampling request appeared (it has been removed from disk). */
  sampling?(request: unknown): void;
  /** A line that could not be used; the reason goes to the server log. */
  rejected(stream: 'progress' | 'log', reason: string): void;
}

/** A notification line longer than this is dropped. */
const MAX_SIDE_CHANNEL_LINE = 64 * 1024;
/** Backstop for platforms or filesystems where watching misses events. */
const POLL_MS = 200;
/**
 * A call still running this long gets its directory watched (and a look at once). Most calls
 * end sooner, and a watch costs each call an inotify set-up and tear-down; what a tool writes
 * before then is seen at that moment.
 */
const WATCH_AFTER_MS = 20;

/** Reads a growing file from where it was last read, yielding complete lines. */
class StreamTail {
  private offset = 0;
  private partial = Buffer.alloc(0);
  private lastMtime = 0;
  private lastSize = 0;
  private fd: number | undefined;

  constructor(private readonly path: string) {}

  /** Whether the file changed (any write or touch) since the last look, without reading it. */
  changed(): boolean {
    this.fd ??= this.open();
    if (this.fd === undefined) return false;
    const stat = fstatSync(this.fd);
    const changed = stat.mtimeMs !== this.lastMtime || stat.size !== this.lastSize;
    this.lastMtime = stat.mtimeMs;
    this.lastSize = stat.size;
    return changed;
  }

  /** New complete lines, and whether the file changed at all since the last look. */
  read(final: boolean): { lines: string[]; changed: boolean; oversized: number } {
    const changed = this.changed();
    if (this.fd === undefined) return { lines: [], changed: false, oversized: 0 };
    const size = this.lastSize;
    const chunks: Buffer[] = [this.partial];
    while (this.offset < size) {
      const buffer = Buffer.alloc(Math.min(size - this.offset, 1024 * 1024));
      const read = readSync(this.fd, buffer, 0, buffer.length, this.offset);
      if (read <= 0) break;
      chunks.push(buffer.subarray(0, read));
      this.offset += read;
    }
    const data = Buffer.concat(chunks);
    const lines: string[] = [];
    let oversized = 0;
    let start = 0;
    for (let newline = data.indexOf(0x0a); newline !== -1; newline = data.indexOf(0x0a, start)) {
      const line = data.subarray(start, newline);
      if (line.length > MAX_SIDE_CHANNEL_LINE) oversized += 1;
      else lines.push(line.toString('utf8'));
      start = newline + 1;
    }
    let rest = data.subarray(start);
    if (final && rest.length > 0) {
      if (rest.length > MAX_SIDE_CHANNEL_LINE) oversized += 1;
      else lines.push(rest.toString('utf8'));
      rest = Buffer.alloc(0);
    }
    // A partial line that is already too long will be dropped; do not keep growing it.
    if (rest.length > MAX_SIDE_CHANNEL_LINE) {
      oversized += 1;
      rest = Buffer.alloc(0);
    }
    this.partial = Buffer.from(rest);
    return { lines, changed, oversized };
  }

  close(): void {
    if (this.fd !== undefined) closeSync(this.fd);
    this.fd = undefined;
  }

  private open(): number | undefined {
    // Usually the tool wrote nothing: a cheap check instead of a failing open's exception.
    if (!existsSync(this.path)) return undefined;
    try {
      return openSync(this.path, 'r');
    } catch {
      return undefined;
    }
  }
}

/**
 * Follows a running tool's progress and log streams and its requests for the client: a
 * directory watch plus a short poll notice each write within moments. Live (the default,
 * decision D5), lines are delivered as they come; buffered (MCPBASH_ENABLE_LIVE_PROGRESS=
 * false), they are delivered when the tool ends. In both modes progress counts as activity
 * at once (progress-extended timeouts) and the tool's requests are answered while it
 * waits.
 */
export class SideChannel {
  private readonly progress: StreamTail;
  private readonly log: StreamTail;
  private watcher: FSWatcher | undefined;
  private watchSoon: NodeJS.Timeout | undefined;
  private poller: NodeJS.Timeout | undefined;
  private scheduled = false;
  private stopped = false;

  constructor(
    private readonly paths: CallPaths,
    private readonly handlers: SideChannelHandlers,
    private readonly live: boolean,
  ) {
    this.progress = new StreamTail(paths.progress);
    this.log = new StreamTail(paths.log);
  }

  start(): void {
    this.watchSoon = setTimeout(() => {
      try {
        this.watcher = watch(this.paths.dir, () => this.schedule());
        this.watcher.on('error', () => this.watcher?.close());
      } catch {
        this.watcher = undefined;
      }
      this.drain(false);
    }, WATCH_AFTER_MS);
    this.poller = setInterval(() => this.drain(false), POLL_MS);
  }

  /** Reads what is left (including a last line without a newline) and stops following. */
  stop(): void {
    if (this.stopped) return;
    this.stopped = true;
    clearTimeout(this.watchSoon);
    this.watcher?.close();
    clearInterval(this.poller);
    this.drain(true);
    this.progress.close();
    this.log.close();
  }

  private schedule(): void {
    if (this.scheduled || this.stopped) return;
    this.scheduled = true;
    setImmediate(() => {
      this.scheduled = false;
      if (!this.stopped) this.drain(false);
    });
  }

  private drain(final: boolean): void {
    if (this.live || final) {
      const progress = this.progress.read(final);
      if (progress.changed) this.handlers.activity();
      this.deliver('progress', progress, (line) => this.handlers.progress(line));
      this.deliver('log', this.log.read(final), (line) => this.handlers.log(line));
    } else if (this.progress.changed()) {
      this.handlers.activity();
    }
    if (!final) {
      this.pickUpRequest(this.paths.elicitRequest, this.handlers.elicitation);
      this.pickUpRequest(this.paths.sampleRequest, this.handlers.sampling);
    }
  }

  private deliver(
    stream: 'progress' | 'log',
    batch: { lines: string[]; oversized: number },
    handle: (line: Record<string, unknown>) => void,
  ): void {
    for (let index = 0; index < batch.oversized; index += 1)
      this.handlers.rejected(stream, `a line longer than ${MAX_SIDE_CHANNEL_LINE} bytes was dropped`);
    for (const text of batch.lines) {
      if (text.trim() === '') continue;
      let value: unknown;
      try {
        value = JSON.parse(text);
      } catch {
        this.handlers.rejected(stream, `not JSON: ${text.slice(0, 200)}`);
        continue;
      }
      if (typeof value !== 'object' || value === null || Array.isArray(value)) {
        this.handlers.rejected(stream, `not a JSON object: ${text.slice(0, 200)}`);
        continue;
      }
      const object = value as Record<string, unknown>;
      // A full JSON-RPC notification (what the SDK writes) or just its params.
      const params =
        typeof object.method === 'string' && typeof object.params === 'object' && object.params !== null
          ? (object.params as Record<string, unknown>)
          : object;
      handle(params);
    }
  }

  /** A request the tool wrote for the client (elicitation, sampling), handed on once. */
  private pickUpRequest(file: string, handler: ((request: unknown) => void) | undefined): void {
    if (!handler || !existsSync(file)) return;
    let request: unknown;
    try {
      request = JSON.parse(readFileSync(file, 'utf8'));
    } catch {
      request = undefined;
    }
    rmSync(file, { force: true });
    handler(request);
  }
}
