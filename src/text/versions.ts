import type { SemVer } from 'semver';
// Single functions, not the package index: the bundle carries only what is used.
import clean from 'semver/functions/clean.js';
import coerce from 'semver/functions/coerce.js';
import compare from 'semver/functions/compare.js';
import parse from 'semver/functions/parse.js';

/** `version` written in full (`3.0` -> `3.0.0`, `v2.1.0-rc.1` -> `2.1.0-rc.1`), as `--version` takes it. */
export function fullVersion(version: string): string | undefined {
  return parseVersion(version)?.version;
}

/**
 * A version as semver reads it: `2.0.0`, `v2.0.0-rc.1`, `2.0.0+build`; a partial `2` or
 * `2.1` means `2.0.0` / `2.1.0`. Anything else (`2.0.0.1`, `latest`) is not a version.
 */
function parseVersion(text: string): SemVer | undefined {
  const cleaned = clean(text.trim());
  if (cleaned !== null) return parse(cleaned) ?? undefined;
  if (/^v?\d+(\.\d+)?$/.test(text.trim())) return coerce(text) ?? undefined;
  return undefined;
}

/**
 * Compares two versions by semver precedence (the `semver` library): a prerelease sorts
 * before its release (`2.0.0-rc.1` < `2.0.0`), `rc.2` before `rc.10`, build metadata is
 * ignored. Undefined when either is not a version.
 */
export function compareVersions(a: string, b: string): number | undefined {
  const left = parseVersion(a);
  const right = parseVersion(b);
  if (!left || !right) return undefined;
  return compare(left, right);
}
