/** The mcp-bash version: injected by the build; `0.0.0-dev` when running from source (unit tests). */
export const VERSION: string = typeof __MCPBASH_VERSION__ === 'string' ? __MCPBASH_VERSION__ : '0.0.0-dev';
