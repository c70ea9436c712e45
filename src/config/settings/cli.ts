import { bool, decimal, inSection, int, shell, text } from '../setting-kinds.js';

/** Where `publish` uploads unless MCP_REGISTRY_URL says. */
export const DEFAULT_REGISTRY_URL = 'https://registry.modelcontextprotocol.io';

/** 1980-01-01 00:00 UTC: the earliest time a ZIP entry can carry. */
export const DOS_EPOCH_SECONDS = 315532800;

/** What single commands read: health, doctor's upgrades, bundle, publish, and the shipped launchers. */
export const cliSettings = {
  ...inSection('CLI commands', {
    MCPBASH_HEALTH_TIMEOUT_SECS: int({
      usedBy: ['cli:health', 'cli:serve'],
      default: 5,
      min: 1,
      doc: '`health`: seconds before the probe answers "timeout" (as `--timeout`)',
    }),
    MCPBASH_BIN: shell({
      usedBy: ['scaffold scripts'],
      defaultDoc: '`mcp-bash` on PATH',
      doc: 'the binary scaffolded `smoke.sh` and `test/run.sh` run (tools get the running mcp-bash in it, below)',
    }),
    MCPBASH_CLIENT_SUPPORTS_UI: shell({
      usedBy: ['sdk'],
      defaultDoc: 'set by the server',
      doc:
        "`1` tells `run-tool` tools (through the SDK's `mcp_client_supports_ui`) that the client renders MCP Apps " +
        'views; the server sets it for its tools',
    }),
    MCPBASH_RELEASE_BASE_URL: text({
      usedBy: ['cli:doctor'],
      defaultDoc: "the project's GitHub release download URL for `v{version}`",
      doc:
        "`doctor --fix --version V` (and `install.sh`): the directory holding one release's archives and " +
        '`SHA256SUMS`; `{version}` is replaced',
    }),
    MCPBASH_DOCTOR_KEEP_BACKUP: bool({
      usedBy: ['cli:doctor'],
      default: false,
      doc: '`doctor --fix` upgrades: keep the previous binary as `<binary>.bak`',
    }),
    MCPBASH_DOCTOR_LOCK_TIMEOUT_SECS: decimal({
      usedBy: ['cli:doctor'],
      default: 10,
      min: 0,
      doc: '`doctor --fix` upgrades: how long to wait for another upgrade of the same binary',
    }),
    MCPBASH_DOCTOR_LOCK_POLL_SECS: decimal({
      usedBy: ['cli:doctor'],
      default: 0.05,
      min: 0.001,
      doc: '`doctor --fix` upgrades: how often to look while waiting',
    }),
  }),
  ...inSection('Bundles, vendored trees and publishing', {
    SOURCE_DATE_EPOCH: int({
      usedBy: ['cli:bundle'],
      default: DOS_EPOCH_SECONDS,
      min: 0,
      defaultDoc: '1980-01-01',
      doc: '`bundle`: the time every archive entry gets (reproducible builds)',
    }),
    MCP_REGISTRY_URL: text({
      usedBy: ['cli:publish'],
      default: DEFAULT_REGISTRY_URL,
      defaultDoc: `\`${DEFAULT_REGISTRY_URL}\``,
      doc: '`publish`: the registry',
    }),
    MCP_REGISTRY_TOKEN: text({ usedBy: ['cli:publish'], doc: '`publish`: the token (as `--token`)' }),
    MCPB_SKIP_LOGIN_SHELL: shell({
      usedBy: ['launcher'],
      defaultDoc: '—',
      doc: "a bundle's launcher does not read the login shell's PATH",
    }),
    MCPBASH_NODE: shell({
      usedBy: ['launcher'],
      defaultDoc: '`node` on PATH',
      doc: 'the node a vendored `mcp-bash.cjs` runs with',
    }),
  }),
};
