import { mkdirSync } from 'node:fs';
import { mkdir, rm } from 'node:fs/promises';
import { join } from 'node:path';

/** The files of one tool call's private directory (docs/TOOL-CONTRACT.md). */
export interface CallPaths {
  readonly dir: string;
  readonly progress: string;
  readonly log: string;
  readonly error: string;
  readonly resources: string;
  readonly cancel: string;
  readonly elicitRequest: string;
  readonly elicitResponse: string;
  readonly args: string;
  readonly meta: string;
  readonly metadata: string;
  readonly debugLog: string;
}

/** How many empty call directories each state dir keeps ready. */
const POOL_SIZE = 4;

/**
 * Empty call directories made ahead of time, off the response path: a synchronous mkdir
 * costs a call a few hundred microseconds on some filesystems. A call takes a ready one (or
 * makes one when the pool is empty, e.g. the first call) and the pool refills in the
 * background.
 */
class DirectoryPool {
  private readonly ready: string[] = [];
  private refilling = 0;
  private made = 0;

  constructor(private readonly parent: string) {
    mkdirSync(parent, { recursive: true, mode: 0o700 });
  }

  take(): string {
    const dir = this.ready.shift() ?? this.makeNow();
    this.refill();
    return dir;
  }

  private nextPath(): string {
    this.made += 1;
    return join(this.parent, String(this.made));
  }

  private makeNow(): string {
    const dir = this.nextPath();
    mkdirSync(dir, { mode: 0o700 });
    return dir;
  }

  private refill(): void {
    while (this.ready.length + this.refilling < POOL_SIZE) {
      const dir = this.nextPath();
      this.refilling += 1;
      mkdir(dir, { mode: 0o700 })
        .then(() => { this.ready.push(dir); })
        .catch(() => {}) // the state dir is going away (shutdown), or full: calls make their own
        .finally(() => { this.refilling -= 1; });
    }
  }
}

const pools = new Map<string, DirectoryPool>();

/**
 * A private, empty directory for one call under `<stateDir>/calls/` (0700). Its files
 * appear when someone writes them (the SDK appends with `>>`); none is created in advance.
 */
export function createCallDirectory(stateDir: string): CallPaths {
  const parent = join(stateDir, 'calls');
  let pool = pools.get(parent);
  if (!pool) {
    pool = new DirectoryPool(parent);
    pools.set(parent, pool);
  }
  const dir = pool.take();
  return {
    dir,
    progress: join(dir, 'progress.ndjson'),
    log: join(dir, 'log.ndjson'),
    error: join(dir, 'error.json'),
    resources: join(dir, 'resources'),
    cancel: join(dir, 'cancelled'),
    elicitRequest: join(dir, 'elicit.request.json'),
    elicitResponse: join(dir, 'elicit.response.json'),
    args: join(dir, 'args.json'),
    meta: join(dir, 'meta.json'),
    metadata: join(dir, 'metadata.json'),
    debugLog: join(dir, 'debug.log'),
  };
}

/**
 * Removes a finished call's directory in the background: a synchronous recursive delete
 * costs milliseconds on the event loop, and nothing waits for it (the state dir goes at exit).
 */
export function removeCallDirectory(paths: CallPaths): void {
  rm(paths.dir, { recursive: true, force: true }).catch(() => {});
}
