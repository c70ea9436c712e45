import { mkdirSync, rmSync } from 'node:fs';
import { setTimeout as sleep } from 'node:timers/promises';
import { type Env, envNumber } from '../../../config/env-values.js';
import { CliError, ExitCode } from '../../cli-error.js';

/**
 * Holds `<path>` (a directory: mkdir is atomic) while one doctor replaces the binary, so two
 * upgrades of the same binary never interleave. Waits MCPBASH_DOCTOR_LOCK_TIMEOUT_SECS (10),
 * polling every MCPBASH_DOCTOR_LOCK_POLL_SECS (0.05), as 1.x did.
 */
export async function withUpgradeLock<T>(path: string, env: Env, body: () => Promise<T>): Promise<T> {
  const timeoutMs = envNumber(env, 'MCPBASH_DOCTOR_LOCK_TIMEOUT_SECS', 10, { min: 0 }) * 1000;
  const pollMs = Math.max(envNumber(env, 'MCPBASH_DOCTOR_LOCK_POLL_SECS', 0.05, { min: 0.001 }) * 1000, 1);
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
