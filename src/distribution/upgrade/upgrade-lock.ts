import { mkdirSync, rmSync } from 'node:fs';
import { setTimeout as sleep } from 'node:timers/promises';
import { CliError, ExitCode } from '../../cli/cli-error.js';
import type { UpgradeConfig } from '../../config/slices.js';

/**
 * Holds `<path>` (a directory: mkdir is atomic) while one doctor replaces the binary, so two
 * upgrades of the same binary never interleave. Waits MCPBASH_DOCTOR_LOCK_TIMEOUT_SECS (10),
 * polling every MCPBASH_DOCTOR_LOCK_POLL_SECS (0.05), as 1.x did.
 */
export async function withUpgradeLock<T>(path: string, config: UpgradeConfig, body: () => Promise<T>): Promise<T> {
  const { lockTimeoutMs: timeoutMs, lockPollMs: pollMs } = config;
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    try {
      mkdirSync(path);
      break;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST')
        throw new CliError(`cannot lock ${path}: ${(error as Error).message}`, ExitCode.Failure);
      if (Date.now() >= deadline)
        throw new CliError(
          `another upgrade holds ${path}`,
          ExitCode.Failure,
          `if no other 'mcp-bash doctor --fix' is running, remove ${path} and try again`,
        );
      await sleep(pollMs);
    }
  }
  try {
    return await body();
  } finally {
    rmSync(path, { recursive: true, force: true });
  }
}
