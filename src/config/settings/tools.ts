import { bool, choice, decimal, inSection, int, list, text } from '../setting-kinds.js';

/** 1.x's default PS4: the script's file name and line. */
const DEFAULT_TRACE_PS4 = '+ ${BASH_SOURCE[0]##*/}:${LINENO}: ';

/** Which tools run, what they inherit, and how their output is kept. */
export const toolSettings = inSection('Tools: who may run what, and with which environment', {
  MCPBASH_TOOL_ALLOWLIST: list({
    usedBy: ['tools'],
    defaultDoc: 'empty: every tool denied',
    doc: 'tool names that may run, separated by spaces or commas; `*` or `all` for every tool',
  }),
  MCPBASH_TOOL_ALLOW_DEFAULT: choice({
    usedBy: ['tools'],
    values: ['deny', 'allow', 'all'],
    default: 'deny',
    doc: '`allow` or `all`: an empty allowlist allows every tool',
  }),
  MCPBASH_TOOL_ENV_MODE: choice({
    usedBy: ['tools'],
    values: ['minimal', 'allowlist', 'inherit'],
    default: 'minimal',
    doc:
      'what tools inherit: `minimal` (PATH, HOME, TMPDIR, LANG, Windows basics, `MCP_*`, `MCPBASH_*`), ' +
      '`allowlist` (minimal plus `MCPBASH_TOOL_ENV_ALLOWLIST`), `inherit` (everything)',
  }),
  MCPBASH_TOOL_ENV_ALLOWLIST: list({ usedBy: ['tools'], doc: 'extra variable names for `allowlist` mode' }),
  MCPBASH_TOOL_ENV_INHERIT_ALLOW: bool({
    usedBy: ['tools'],
    default: false,
    doc: 'must be true for `inherit` mode',
  }),
  MCPBASH_ALLOW_PROJECT_HOOKS: bool({
    usedBy: ['registry'],
    default: false,
    doc: 'run `server.d/register.sh`',
  }),
  MCPBASH_TOOL_STDERR_CAPTURE: bool({
    usedBy: ['tools'],
    default: true,
    doc: "put the tail of a tool's stderr in `_meta.stderr`",
  }),
  MCPBASH_TOOL_STDERR_TAIL_LIMIT: int({ usedBy: ['tools'], default: 4096, min: 0, doc: 'bytes of that tail' }),
  MCPBASH_TOOL_STREAM_STDERR: bool({
    usedBy: ['tools'],
    default: false,
    doc: "copy tools' stderr to the server's stderr as it comes",
  }),
  MCPBASH_TRACE_TOOLS: bool({
    usedBy: ['tools'],
    default: false,
    doc: "run Bash tools with xtrace; the trace is kept in the call's directory (D66)",
  }),
  MCPBASH_TRACE_PS4: text({
    usedBy: ['tools'],
    default: DEFAULT_TRACE_PS4,
    defaultDoc: `\`${DEFAULT_TRACE_PS4}\``,
    doc: 'PS4 of traced tools',
  }),
  MCPBASH_TRACE_MAX_BYTES: int({
    usedBy: ['tools'],
    default: 1024 * 1024,
    min: 1,
    doc: 'a kept trace is cut to its last this many bytes',
  }),
  MCPBASH_ENV_PAYLOAD_THRESHOLD: int({
    usedBy: ['tools'],
    default: 65536,
    min: 0,
    doc: 'arguments and metadata larger than this go to files (`MCP_TOOL_ARGS_FILE`, ...) instead of variables',
  }),
  MCPBASH_MAX_TEXT_BYTES: int({
    usedBy: ['tools', 'sdk'],
    default: 102400,
    min: 0,
    doc: 'SDK: `mcp_result_success` and `mcp_json_truncate` summarise beyond this',
  }),
  MCPBASH_ELICITATION_TIMEOUT: decimal({
    usedBy: ['server', 'sdk'],
    default: 30,
    min: 1,
    doc: 'seconds the SDK waits for an elicitation answer (the server waits 5 more for the client)',
  }),
  MCPBASH_SAMPLING_TIMEOUT: decimal({
    usedBy: ['server', 'sdk'],
    default: 120,
    min: 1,
    doc: "seconds the SDK waits for the client's model to answer `mcp_sample` (the server waits 5 more)",
  }),
  MCPBASH_RUN_TOOL_SOURCE_SERVER_ENV: bool({
    usedBy: ['cli:run-tool'],
    default: false,
    doc: '`run-tool` sources `server.d/env.sh` (as `--with-server-env`)',
  }),
});
