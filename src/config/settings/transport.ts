import { bool, choice, inSection, int, text } from '../setting-kinds.js';

/** How clients reach the server, what proves they may, and which jq tools get. */
export const transportSettings = {
  ...inSection('Transport and the remote token', {
    MCPBASH_TRANSPORT: text({
      usedBy: ['server'],
      defaultDoc: '`stdio`',
      doc: 'plain `mcp-bash` speaks stdio; any other value is refused at start (for HTTP run `mcp-bash serve --http`)',
    }),
    MCP_TRANSPORT: text({ usedBy: ['server'], defaultDoc: '`stdio`', doc: "the same (1.x's second name)" }),
    MCPBASH_REMOTE_TOKEN: text({
      usedBy: ['server', 'cli:health'],
      doc: 'a shared secret (32 characters or more) every request must carry (docs/REMOTE.md)',
    }),
    MCPBASH_REMOTE_TOKEN_KEY: text({
      usedBy: ['server'],
      default: 'mcpbash/remoteToken',
      doc: 'the `_meta` key holding it',
    }),
    MCPBASH_REMOTE_TOKEN_FALLBACK_KEY: text({
      usedBy: ['server'],
      default: 'remoteToken',
      doc: 'a second key accepted',
    }),
    MCPBASH_REMOTE_TOKEN_MAX_FAILURES_PER_MIN: int({
      usedBy: ['server'],
      default: 10,
      min: 0,
      doc: 'failures per minute before answers say "throttled"',
    }),
  }),
  ...inSection('JSON tool', {
    MCPBASH_JSON_TOOL: choice({
      usedBy: ['json-tool'],
      values: ['auto', 'gojq', 'jq', 'none'],
      default: 'auto',
      defaultDoc: 'gojq, then jq 1.7 or later, then the warm built-in jq (D299)',
      doc:
        '`auto`, `jq` (any version), `gojq`: which one tools get; ' +
        '`none`: minimal mode, as `MCPBASH_FORCE_MINIMAL` (logging only)',
    }),
    MCPBASH_JSON_TOOL_BIN: text({
      usedBy: ['json-tool'],
      defaultDoc: 'found on PATH',
      doc: 'an explicit binary (ignored when running as root unless the next one is set)',
    }),
    MCPBASH_ALLOW_JSON_TOOL_OVERRIDE_FOR_ROOT: bool({
      usedBy: ['json-tool'],
      default: false,
      doc: 'honour `MCPBASH_JSON_TOOL_BIN` as root',
    }),
  }),
};
