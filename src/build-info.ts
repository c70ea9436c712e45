/** The mcp-bash version: injected by the build; `0.0.0-dev` when running from source (unit tests). */
export const VERSION: string = typeof __MCPBASH_VERSION__ === 'string' ? __MCPBASH_VERSION__ : '0.0.0-dev';

/**
 * Where releases are downloaded from (release/release.json, injected by the build): the
 * directory of one release's files, `{version}` standing for the version. Empty from source.
 */
export const RELEASE_BASE_URL: string =
  typeof __MCPBASH_RELEASE_BASE_URL__ === 'string' ? __MCPBASH_RELEASE_BASE_URL__ : '';
