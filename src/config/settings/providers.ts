import { bool, choice, list, shell } from '../setting-kinds.js';

const section = 'Resource providers';

function https(doc: string, defaultDoc = '—') {
  return shell({ section, usedBy: ['provider scripts', 'sdk'], defaultDoc, doc });
}

function git(doc: string, defaultDoc = '—') {
  return shell({ section, usedBy: ['provider scripts'], defaultDoc, doc });
}

/** What providers and completion scripts inherit, and what the shipped providers may fetch. */
export const providerSettings = {
  MCPBASH_PROVIDER_ENV_MODE: choice({
    section,
    usedBy: ['providers'],
    values: ['isolate', 'allowlist', 'inherit'],
    default: 'isolate',
    doc: 'what providers and completion scripts inherit: `isolate`, `allowlist`, `inherit`',
  }),
  MCPBASH_PROVIDER_ENV_ALLOWLIST: list({
    section,
    usedBy: ['providers'],
    doc: 'extra variable names for `allowlist` mode',
  }),
  MCPBASH_PROVIDER_ENV_INHERIT_ALLOW: bool({
    section,
    usedBy: ['providers'],
    default: false,
    doc: 'must be true for `inherit` mode (D55)',
  }),
  MCPBASH_HTTPS_ALLOW_HOSTS: https('hosts the https provider (and `mcp_download_safe`) may fetch from'),
  MCPBASH_HTTPS_DENY_HOSTS: https('hosts never fetched (wins over the allow list)'),
  MCPBASH_HTTPS_ALLOW_ALL: https('allow any public host', 'false'),
  MCPBASH_HTTPS_TIMEOUT: https('seconds per fetch', '15 (at most 60)'),
  MCPBASH_HTTPS_MAX_BYTES: https('largest response', '10485760 (at most 20971520)'),
  MCPBASH_HTTPS_USER_AGENT: https('User-Agent of fetches'),
  MCPBASH_ENABLE_GIT_PROVIDER: git('enable `git+https://` resources', 'false'),
  MCPBASH_GIT_ALLOW_HOSTS: git('hosts the git provider may clone from'),
  MCPBASH_GIT_DENY_HOSTS: git('hosts never cloned'),
  MCPBASH_GIT_ALLOW_ALL: git('allow any public host', 'false'),
  MCPBASH_GIT_TIMEOUT: git('seconds per clone', '30 (at most 60)'),
  MCPBASH_GIT_MAX_KB: git('largest repository', '51200 (at most 1048576)'),
  'MCPBASH_HTTPS_*': https('every such variable reaches the providers in `isolate` mode'),
  'MCPBASH_GIT_*': git('every such variable reaches the providers in `isolate` mode'),
  MCPBASH_TEST_ONLY_LOOPBACK_TARGETS: shell({
    section,
    usedBy: ['provider scripts', 'sdk'],
    defaultDoc: '—',
    doc: 'test suites only: `host:port` pairs the URL policy lets through to loopback; never set it in production',
  }),
} as const;
