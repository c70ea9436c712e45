import { bool, decimal, inSection, int, list, text } from '../setting-kinds.js';

const usedBy = ['cli:serve'] as const;

/** `mcp-bash serve --http` (docs/REMOTE.md): where it listens, who may connect, its limits. */
export const httpSettings = inSection('Streamable HTTP', {
  MCPBASH_HTTP_LISTEN: text({
    usedBy,
    doc:
      '`[HOST:]PORT` for `mcp-bash serve` when `--http` is not given (HOST defaults to `127.0.0.1`; port 0 picks ' +
      'a free one). Plain `mcp-bash` ignores it',
  }),
  MCPBASH_HTTP_PATH: text({
    usedBy,
    default: '/mcp',
    doc: "the MCP endpoint's path (`--path` wins); not `/healthz` or `/readyz`",
  }),
  MCPBASH_HTTP_TOKEN: text({
    usedBy,
    doc:
      'the bearer token (32 characters or more) every request to the endpoint must carry as `Authorization: Bearer ' +
      '<token>` (compared in constant time); required to listen beyond loopback unless `--insecure`. Like the remote ' +
      'token it is never passed to tools, providers or hooks (D97)',
  }),
  MCPBASH_HTTP_ALLOWED_ORIGINS: list({
    usedBy,
    defaultDoc: '— (loopback origins only)',
    doc:
      'browser origins allowed besides `http(s)://localhost`, `127.0.0.1` and `[::1]`, separated by spaces or ' +
      'commas; `*` allows any (refused without `MCPBASH_HTTP_TOKEN` unless `--insecure`: any web page could call the ' +
      'server). A request with another `Origin` gets 403',
  }),
  MCPBASH_HTTP_STATELESS: bool({
    usedBy,
    default: false,
    doc: 'as `--stateless`: no sessions, each POST stands alone',
  }),
  MCPBASH_HTTP_MAX_BODY_BYTES: int({
    usedBy,
    default: 4 * 1024 * 1024,
    min: 1024,
    defaultDoc: '4194304 (at least 1024)',
    doc: 'a larger request body gets 413',
  }),
  MCPBASH_HTTP_REQUEST_TIMEOUT_SECS: decimal({
    usedBy,
    default: 30,
    min: 0.1,
    doc:
      "a request's headers and body must arrive within this (slow clients are cut), and a session's " +
      'handshake (`initialize`, then `notifications/initialized`) must finish within it',
  }),
  MCPBASH_HTTP_SESSION_IDLE_SECS: decimal({
    usedBy,
    default: 3600,
    min: 0,
    doc: 'a session with no connection and no running request for this long ends (its id then gets 404); 0 never',
  }),
  MCPBASH_HTTP_MAX_SESSIONS: int({
    usedBy,
    default: 100,
    min: 1,
    doc:
      'sessions at once; an `initialize` beyond ends the oldest session not yet initialized, ' +
      'or gets 503 when all are',
  }),
  MCPBASH_HTTP_TRUST_CLIENT_ROOTS: bool({
    usedBy,
    default: false,
    doc:
      "let a client's roots widen what the server itself reads (`resources/read` through the file provider, tool " +
      "attachments), as over stdio; off: a remote client's roots name directories on its own machine, and the " +
      "server reads only inside the roots its operator configured (D289). Tools see the client's roots either way",
  }),
  MCPBASH_HTTP_RESUME_GRACE_SECS: decimal({
    usedBy,
    default: 30,
    min: 0,
    doc:
      'how long a call whose stream broke waits for the client to resume it (GET with `Last-Event-ID`) before ' +
      'it is cancelled; 0 cancels at once',
  }),
});
