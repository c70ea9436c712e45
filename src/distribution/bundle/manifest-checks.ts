import { CliError, ExitCode } from '../../cli/cli-error.js';
import { isObject } from '../../json/objects.js';
import type { BundleFields } from './bundle-fields.js';
import { PLATFORMS } from './runtime-sources.js';

const SEMVER = new RegExp(
  '^(0|[1-9]\\d*)\\.(0|[1-9]\\d*)\\.(0|[1-9]\\d*)' +
    '(?:-((?:0|[1-9]\\d*|\\d*[A-Za-z-][0-9A-Za-z-]*)(?:\\.(?:0|[1-9]\\d*|\\d*[A-Za-z-][0-9A-Za-z-]*))*))?' +
    '(?:\\+([0-9A-Za-z-]+(?:\\.[0-9A-Za-z-]+)*))?$',
);
const EMAIL = /^[A-Za-z0-9_'+.-]*[A-Za-z0-9_+-]@(?:[A-Za-z0-9][A-Za-z0-9-]*\.)+[A-Za-z]{2,}$/;
const LOCALE = /^[A-Za-z0-9]{2,8}(?:-[A-Za-z0-9]{1,8})*$/;

/** Semantic Versioning 2.0.0 (MAJOR.MINOR.PATCH, optional -pre and +build). */
export function isSemver(version: string): boolean {
  return SEMVER.test(version);
}

export function isEmail(value: string): boolean {
  return EMAIL.test(value) && !value.includes('..');
}

function metaProblems(meta: Record<string, unknown>, problems: string[]): void {
  const { localization, _meta } = meta;
  if (
    localization !== undefined &&
    !(
      isObject(localization) &&
      typeof localization.resources === 'string' &&
      localization.resources.includes('${locale}') &&
      typeof localization.default_locale === 'string' &&
      LOCALE.test(localization.default_locale) &&
      Object.keys(localization).every((key) => key === 'resources' || key === 'default_locale')
    )
  )
    problems.push('server.meta.json localization must be {"resources": "...${locale}...", "default_locale": "en-US"}');
  if (_meta !== undefined && !(isObject(_meta) && Object.values(_meta).every(isObject)))
    problems.push('server.meta.json _meta must be an object of objects ({"com.example/key": {...}})');
  const overrides = meta.platform_overrides;
  if (overrides === undefined) return;
  const valid =
    isObject(overrides) &&
    Object.entries(overrides).every(
      ([platform, override]) => (PLATFORMS as readonly string[]).includes(platform) && isOverride(override),
    );
  if (!valid)
    problems.push(
      `server.meta.json platform_overrides must map ${PLATFORMS.join(', ')} to {"command"?: "...", "args"?: ` +
        `[...], "env"?: {...}}`,
    );
}

/** One platform override: only command (a string), args (strings) and env (string values). */
function isOverride(value: unknown): boolean {
  if (!isObject(value)) return false;
  const { command, args, env, ...rest } = value;
  return (
    Object.keys(rest).length === 0 &&
    (command === undefined || typeof command === 'string') &&
    (args === undefined || (Array.isArray(args) && args.every((arg) => typeof arg === 'string'))) &&
    (env === undefined || (isObject(env) && Object.values(env).every((item) => typeof item === 'string')))
  );
}

/**
 * What would make MCPB reject the manifest (its schema is strict, and clients need an
 * author and a semantic version), each naming the setting to change. Never write a bundle
 * `mcpb validate` refuses: any problem fails the build (exit 1).
 */
export function checkManifestFields(fields: BundleFields, platformOverrides: unknown): void {
  const problems: string[] = [];
  if (!fields.author)
    problems.push(
      'no author: MCPB requires author.name. Set MCPB_AUTHOR_NAME in mcpb.conf (or "author" in ' +
        'server.d/server.meta.json, or git config user.name)',
    );
  if (!isSemver(fields.version))
    problems.push(`version "${fields.version}" is not a semantic version (like 1.2.0): set --version or MCPB_VERSION`);
  if (/[/\\\s]|^\./.test(fields.name) || fields.name === '')
    problems.push(
      `name "${fields.name}" cannot name a file (no slashes, spaces or leading dot): set --name or MCPB_NAME`,
    );
  if (fields.author?.email !== undefined && !isEmail(fields.author.email))
    problems.push(`author email "${fields.author.email}" is not an email address (MCPB_AUTHOR_EMAIL)`);
  const urls: Array<[string, string | undefined]> = [
    ['author url (MCPB_AUTHOR_URL)', fields.author?.url],
    ['repository (MCPB_REPOSITORY)', fields.repository],
    ['homepage (MCPB_HOMEPAGE)', fields.homepage],
    ['documentation (MCPB_DOCUMENTATION)', fields.documentation],
    ['support (MCPB_SUPPORT)', fields.support],
    ...(fields.privacyPolicies ?? []).map((url): [string, string] => ['privacy policy (MCPB_PRIVACY_POLICIES)', url]),
  ];
  for (const [what, url] of urls)
    if (url !== undefined && !URL.canParse(url)) problems.push(`${what} "${url}" is not a URL`);
  metaProblems({ ...fields.meta, platform_overrides: platformOverrides }, problems);
  if (problems.length > 0) {
    throw new CliError(
      `the bundle would not be a valid MCPB bundle:\n${problems.map((problem) => `  - ${problem}`).join('\n')}`,
      ExitCode.Failure,
    );
  }
}
