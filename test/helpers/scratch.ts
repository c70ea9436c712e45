import { chmodSync, lstatSync, mkdirSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

let root: string | undefined;

/** Makes every directory under `path` writable again, so a test's read-only corners can go. */
function unlock(path: string): void {
  try {
    if (!lstatSync(path).isDirectory()) return;
    chmodSync(path, 0o700);
    for (const entry of readdirSync(path)) unlock(join(path, entry));
  } catch {
    // gone already, or not ours to change
  }
}

function removeRoot(dir: string): void {
  try {
    rmSync(dir, { recursive: true, force: true, maxRetries: 2 });
  } catch {
    unlock(dir);
    rmSync(dir, { recursive: true, force: true, maxRetries: 2 });
  }
}

/**
 * The scratch root of this test process: one directory under the system temp dir that is
 * removed when the process exits (tap runs each test file in a process of its own), with
 * whatever the tests and the servers they started left in it. MCPBASH_TEST_KEEP_TMP=1 keeps
 * it for a post-mortem.
 */
function scratchRoot(): string {
  if (root) return root;
  const dir = mkdtempSync(join(tmpdir(), 'mcpbash-test-'));
  root = dir;
  if (process.env.MCPBASH_TEST_KEEP_TMP !== '1') process.once('exit', () => removeRoot(dir));
  return dir;
}

/** A fresh, empty directory under the scratch root (0700, like mkdtemp). */
export function scratchDir(prefix = 'dir-'): string {
  return mkdtempSync(join(scratchRoot(), prefix));
}

/**
 * The TMPDIR given to the binaries and scripts the tests start: inside the scratch root, so
 * their state dirs go with it even when a test had to kill them.
 */
export function scratchTmp(): string {
  const dir = join(scratchRoot(), 'tmp');
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  return dir;
}
