import { spawnSync } from 'node:child_process';

/** Whether shellcheck runs here. */
export const shellcheckMissing = spawnSync('shellcheck', ['--version'], { encoding: 'utf8' }).error !== undefined;

/**
 * The skip reason for a shellcheck test, or false to run it. Without shellcheck the test
 * is skipped on a developer's machine, but fails where MCPBASH_REQUIRE_SHELLCHECK=1 says
 * it must run (.ci/run sets it): a lint that CI silently skipped would prove nothing.
 */
export function shellcheckSkip(): string | false {
  if (!shellcheckMissing || process.env.MCPBASH_REQUIRE_SHELLCHECK === '1') return false;
  return 'shellcheck is not installed (CI installs it and sets MCPBASH_REQUIRE_SHELLCHECK=1)';
}
