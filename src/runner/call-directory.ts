import { randomBytes } from 'node:crypto';
import { mkdirSync, rmdirSync } from 'node:fs';
import { mkdir, rm, rmdir } from 'node:fs/promises';
import { join } from 'node:path';

/** How many empty call directories a pool keeps ready at first, and at most. */
const POOL_START = 4;
const POOL_MAX = 32;

/**
 * Private, empty directories for tool calls under `<stateDir>/calls/` (0700), made ahead
 * of time off the response path: a synchronous mkdir costs a call a few hundred
 * microseconds on some filesystems. A call takes a ready one (or makes one when the pool is
 * empty, e.g. the first call, and then keeps twice as many, up to POOL_MAX: calls in flight
 * need one each) and the pool refills in the background. Files appear in a
 * call's directory when someone writes them (the SDK appends with `>>`); none is created
 * in advance. One pool per ToolRuntime: it lives as long as its state dir.
 */
export class CallDirectoryPool {
  private readonly parent: string;
  private readonly ready: string[] = [];
  private size = POOL_START;
  // Refills under way: close() waits for them, so none makes a directory after it returned.
  private readonly refilling = new Set<Promise<void>>();
  private made = 0;
  private parentMade = false;
  private closed = false;
  // Names are unique to this pool: a state dir may be shared (MCPBASH_STATE_DIR) with another
  // process, or hold a previous run's directories (MCPBASH_PRESERVE_STATE).
  private readonly prefix = randomBytes(4).toString('hex');

  constructor(stateDir: string) {
    this.parent = join(stateDir, 'calls');
  }

  /** The directory (and file paths) of a new call. */
  create(): CallPaths {
    let dir = this.ready.shift();
    if (dir === undefined) {
      if (this.made > 0) this.size = Math.min(POOL_MAX, this.size * 2);
      dir = this.makeNow();
    }
    this.refill();
    return callPaths(dir);
  }

  private nextPath(): string {
    this.made += 1;
    return join(this.parent, `${this.prefix}-${this.made}`);
  }

  private makeNow(): string {
    if (!this.parentMade) {
      mkdirSync(this.parent, { recursive: true, mode: 0o700 });
      this.parentMade = true;
    }
    for (;;) {
      const dir = this.nextPath();
      try {
        mkdirSync(dir, { mode: 0o700 });
        mkdirSync(filesDir(dir), { mode: 0o700 });
        return dir;
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      }
    }
  }

  /**
   * Removes the spare directories (the calls' own go when each call ends): in a state dir
   * that outlives the process (an existing MCPBASH_STATE_DIR, D264) nothing is left behind.
   * No call is made after this. Settles when the refills under way have removed what they
   * made: the state dir can go then without a directory appearing in it as it goes.
   */
  close(): Promise<void> {
    this.closed = true;
    for (const dir of this.ready.splice(0)) {
      try {
        rmdirSync(filesDir(dir));
        rmdirSync(dir);
      } catch {
        // already gone with the state dir, or a tool wrote in it: left as it is
      }
    }
    return this.whenRefilled();
  }

  /** Settles when the refills under way have finished. */
  whenRefilled(): Promise<void> {
    return Promise.all(this.refilling).then(() => {});
  }

  private refill(): void {
    while (!this.closed && this.parentMade && this.ready.length + this.refilling.size < this.size) {
      const dir = this.nextPath();
      const refill: Promise<void> = mkdir(dir, { mode: 0o700 })
        .then(() => mkdir(filesDir(dir), { mode: 0o700 }))
        .then(() => {
          // Made after close(): a spare nobody will take.
          if (this.closed) return rmdir(filesDir(dir)).then(() => rmdir(dir));
          this.ready.push(dir);
        })
        .catch(() => {}) // the state dir is going away (shutdown), or full: calls make their own
        .finally(() => this.refilling.delete(refill));
      this.refilling.add(refill);
    }
  }
}

const filesDir = (dir: string) => join(dir, 'files');

/** The files of a call, in its private directory. */
export type CallPaths = ReturnType<typeof callPaths>;

function callPaths(dir: string) {
  return {
    dir,
    progress: join(dir, 'progress.ndjson'),
    log: join(dir, 'log.ndjson'),
    error: join(dir, 'error.json'),
    resources: join(dir, 'resources'),
    cancel: join(dir, 'cancelled'),
    elicitRequest: join(dir, 'elicit.request.json'),
    elicitResponse: join(dir, 'elicit.response.json'),
    sampleRequest: join(dir, 'sample.request.json'),
    sampleResponse: join(dir, 'sample.response.json'),
    /** The text of a text answer, beside the answer (the SDK reads it without a JSON tool). */
    sampleText: join(dir, 'sample.response.txt'),
    args: join(dir, 'args.json'),
    meta: join(dir, 'meta.json'),
    metadata: join(dir, 'metadata.json'),
    debugLog: join(dir, 'debug.log'),
    /** The tool's own files (MCP_TOOL_CALL_DIR): made with the directory, always attachable. */
    files: filesDir(dir),
  };
}

/**
 * Removes a finished call's directory in the background: a synchronous recursive delete
 * costs milliseconds on the event loop, and nothing waits for it (the state dir goes at exit).
 */
export function removeCallDirectory(paths: CallPaths): void {
  // Most calls leave their directory as it was made: two rmdirs, not a recursive walk.
  rmdir(paths.files)
    .then(() => rmdir(paths.dir))
    .catch(() => rm(paths.dir, { recursive: true, force: true }))
    .catch(() => {});
}
