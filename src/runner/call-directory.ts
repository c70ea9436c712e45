import { closeSync, mkdirSync, openSync } from 'node:fs';
import { rm } from 'node:fs/promises';
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

const parentsMade = new Set<string>();

/** Creates `<stateDir>/calls/<key>/` (0700) with the two streams present and empty. */
export function createCallDirectory(stateDir: string, key: string): CallPaths {
  const parent = join(stateDir, 'calls');
  if (!parentsMade.has(parent)) {
    mkdirSync(parent, { recursive: true, mode: 0o700 });
    parentsMade.add(parent);
  }
  const dir = join(parent, key);
  mkdirSync(dir, { mode: 0o700 });
  const paths: CallPaths = {
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
  closeSync(openSync(paths.progress, 'w'));
  closeSync(openSync(paths.log, 'w'));
  return paths;
}

/**
 * Removes a finished call's directory in the background: a synchronous recursive delete
 * costs milliseconds on the event loop, and nothing waits for it (the state dir goes at exit).
 */
export function removeCallDirectory(paths: CallPaths): void {
  rm(paths.dir, { recursive: true, force: true }).catch(() => {});
}
