import { PROVIDER_NAME_PATTERN } from '../../schemas/meta-files.js';

/** A provider name is the file name of its script (`providers/<name>.sh`), never a path. */
export function isValidProviderName(name: string): boolean {
  return PROVIDER_NAME_PATTERN.test(name);
}

const SCHEME = /^([A-Za-z][A-Za-z0-9+.-]*):/;

/** The URI's scheme in lower case (`file`, `https`, `git+https`), or undefined. */
function uriScheme(uri: string): string | undefined {
  return SCHEME.exec(uri)?.[1]?.toLowerCase();
}

/** Schemes whose provider is not named after them. */
const PROVIDER_BY_SCHEME: Readonly<Record<string, string>> = { 'git+https': 'git' };

/**
 * The provider that serves a URI when no registry entry names one: `file://` → file,
 * `https://` → https, `git+https://` → git, any other scheme → the provider of that name
 * (`echo://` → echo, `myapi://` → a project's `providers/myapi.sh`); no scheme → file.
 */
export function providerForUri(uri: string): string {
  const scheme = uriScheme(uri);
  if (scheme === undefined) return 'file';
  return PROVIDER_BY_SCHEME[scheme] ?? scheme;
}
