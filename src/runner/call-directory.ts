import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
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

/** Creates `<stateDir>/calls/<key>/` (0700) with the two streams present and empty. */
export function createCallDirectory(stateDir: string, key: string): CallPaths {
  const dir = join(stateDir, 'calls', key);
  mkdirSync(dir, { recursive: true, mode: 0o700 });
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
  writeFileSync(paths.progress, '');
  writeFileSync(paths.log, '');
  return paths;
}

export function removeCallDirectory(paths: CallPaths): void {
  rmSync(paths.dir, { recursive: true, force: true });
}
