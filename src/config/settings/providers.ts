import { bool, choice, inSection, int, list, shell } from '../setting-kinds.js';

function https(doc: string, defaultDoc = '—') {
  return shell({ usedBy: ['provider scripts', 'sdk'], defaultDoc, doc });
}

function git(doc: string, defaultDoc = '—') {
  return shell({ usedBy: ['provider scripts'], defaultDoc, doc });
}

// The provider scripts read these; the server (and run-tool, for mcp_download_safe) parses
// them only to warn about a value the scripts would not take as given.
const HTTPS_READERS = ['providers', 'tools', 'provider scripts', 'sdk'] as const;
const GIT_READERS = ['providers', 'provider scripts'] as const;

function flag(usedBy: typeof HTTPS_READERS | typeof GIT_READERS, doc: string) {
  return bool({ usedBy, default: false, doc });
}

function seconds(usedBy: typeof HTTPS_READERS | typeof GIT_READERS, fallback: number, doc: string) {
  return int({ usedBy, default: fallback, min: 1, max: 60, doc });
}

/** What providers and completion scripts inherit, and what the shipped providers may fetch. */
export const providerSettings = inSection('Resource providers', {
  MCPBASH_PROVIDER_ENV_MODE: choice({
    usedBy: ['providers'],
    values: ['isolate', 'allowlist', 'inherit'],
    default: 'isolate',
    doc: 'what providers and completion scripts inherit: `isolate`, `allowlist`, `inherit`',
  }),
  MCPBASH_PROVIDER_ENV_ALLOWLIST: list({
    usedBy: ['providers'],
    doc: 'extra variable names for `allowlist` mode',
  }),
  MCPBASH_PROVIDER_ENV_INHERIT_ALLOW: bool({
    usedBy: ['providers'],
    default: false,
    doc: 'must be true for `inherit` mode (D55)',
  }),
  MCPBASH_HTTPS_ALLOW_HOSTS: https('hosts the https provider (and `mcp_download_safe`) may fetch from'),
  MCPBASH_HTTPS_DENY_HOSTS: https('hosts never fetched (wins over the allow list)'),
  MCPBASH_HTTPS_ALLOW_ALL: flag(HTTPS_READERS, 'allow any public host'),
  MCPBASH_HTTPS_TIMEOUT: seconds(HTTPS_READERS, 15, 'seconds per fetch'),
  MCPBASH_HTTPS_MAX_BYTES: int({
    usedBy: HTTPS_READERS,
    default: 10485760,
    min: 1,
    max: 20971520,
    doc: 'largest response',
  }),
  MCPBASH_HTTPS_USER_AGENT: https('User-Agent of fetches'),
  MCPBASH_ENABLE_GIT_PROVIDER: flag(GIT_READERS, 'enable `git+https://` resources'),
  MCPBASH_GIT_ALLOW_HOSTS: git('hosts the git provider may clone from'),
  MCPBASH_GIT_DENY_HOSTS: git('hosts never cloned'),
  MCPBASH_GIT_ALLOW_ALL: flag(GIT_READERS, 'allow any public host'),
  MCPBASH_GIT_TIMEOUT: seconds(GIT_READERS, 30, 'seconds per clone'),
  MCPBASH_GIT_MAX_KB: int({
    usedBy: GIT_READERS,
    default: 51200,
    min: 1,
    max: 1048576,
    doc: 'largest repository',
  }),
  'MCPBASH_HTTPS_*': https('every such variable reaches the providers in `isolate` mode'),
  'MCPBASH_GIT_*': git('every such variable reaches the providers in `isolate` mode'),
  MCPBASH_TEST_ONLY_LOOPBACK_TARGETS: shell({
    usedBy: ['provider scripts', 'sdk'],
    defaultDoc: '—',
    doc: 'test suites only: `host:port` pairs the URL policy lets through to loopback; never set it in production',
  }),
});
