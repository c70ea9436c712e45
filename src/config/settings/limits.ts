import { bool, decimal, inSection, int } from '../setting-kinds.js';

const MIB = 1024 * 1024;

/** How long things may take, how much they may write, how many run at once. */
export const limitSettings = inSection('Timeouts, limits and concurrency', {
  MCPBASH_DEFAULT_TOOL_TIMEOUT: int({
    usedBy: ['tools'],
    default: 30,
    min: 0,
    doc: "seconds a tool call may run when neither the request nor the tool's `timeoutSecs` says (D4); 0 = none",
  }),
  MCPBASH_PROGRESS_EXTENDS_TIMEOUT: bool({
    usedBy: ['tools'],
    default: false,
    doc: "progress restarts every tool's timeout (as `progressExtendsTimeout: true`)",
  }),
  MCPBASH_MAX_TIMEOUT_SECS: int({
    usedBy: ['tools'],
    default: 600,
    min: 1,
    doc: 'the hard cap when progress extends a timeout',
  }),
  MCPBASH_KILL_GRACE_SECS: decimal({
    usedBy: ['tools', 'server'],
    default: 1,
    min: 0,
    max: 60,
    defaultDoc: '1 (at most 60)',
    doc: 'seconds between TERM and KILL when a tool is stopped (D89)',
  }),
  MCPBASH_MAX_CONCURRENT_REQUESTS: int({
    usedBy: ['server'],
    default: 16,
    min: 1,
    doc: 'requests that run processes at once',
  }),
  MCPBASH_MAX_MESSAGE_BYTES: int({
    usedBy: ['server'],
    default: 32 * MIB,
    min: 1024,
    doc: 'longest input message (D41)',
  }),
  MCPBASH_MAX_TOOL_OUTPUT_SIZE: int({
    usedBy: ['tools', 'server'],
    default: 10 * MIB,
    min: 1,
    doc:
      'tool stdout cap, and the size cap of any response but lists and the lifecycle answers ' +
      '(`initialize`, `ping`, `logging/setLevel`, `shutdown`, `exit`; D275)',
  }),
  MCPBASH_MAX_TOOL_STDERR_SIZE: int({
    usedBy: ['tools'],
    default: (read) => read('MCPBASH_MAX_TOOL_OUTPUT_SIZE') as number,
    min: 1,
    defaultDoc: 'the output cap',
    doc: 'tool stderr cap',
  }),
  MCPBASH_MAX_RESOURCE_BYTES: int({
    usedBy: ['tools', 'providers'],
    default: (read) => read('MCPBASH_MAX_TOOL_OUTPUT_SIZE') as number,
    min: 1,
    defaultDoc: 'the output cap',
    doc: 'resource payloads and tool attachments',
  }),
  MCPBASH_MAX_UI_RESOURCE_BYTES: int({
    usedBy: ['server', 'cli:validate'],
    default: MIB,
    min: 1,
    doc: 'the largest MCP Apps view page a read serves ([UI.md](UI.md))',
  }),
  MCPBASH_MAX_PROGRESS_PER_MIN: int({
    usedBy: ['tools'],
    default: 100,
    min: 0,
    doc: 'progress notifications per request per minute',
  }),
  MCPBASH_MAX_LOGS_PER_MIN: int({
    usedBy: ['tools'],
    default: (read) => read('MCPBASH_MAX_PROGRESS_PER_MIN') as number,
    min: 0,
    defaultDoc: 'the progress limit',
    doc: 'tool log notifications per request per minute',
  }),
  MCPBASH_ENABLE_LIVE_PROGRESS: bool({
    usedBy: ['tools'],
    default: true,
    doc: 'forward progress and logs while the tool runs (false: when it ends) (D5)',
  }),
  MCPBASH_COMPLETION_TIMEOUT_SECS: int({
    usedBy: ['server'],
    default: 5,
    min: 0,
    doc: 'seconds a completion script may run unless its registration says (D65); 0 = none',
  }),
  MCPBASH_DEFAULT_SUBSCRIBE_TIMEOUT: int({
    usedBy: ['server'],
    default: 120,
    min: 0,
    doc: 'seconds the first read of a `resources/subscribe` may take',
  }),
  MCPBASH_RESOURCES_POLL_INTERVAL_SECS: decimal({
    usedBy: ['server'],
    default: 2,
    min: 0,
    doc:
      'how often subscribed resources are re-read; 0 = never (an unchanged resource is re-read less and less ' +
      'often, up to every 30 s, D93)',
  }),
  MCPBASH_MAX_SUBSCRIPTIONS: int({
    usedBy: ['server'],
    default: 64,
    min: 1,
    doc: 'distinct URIs one session may subscribe to (D93)',
  }),
  MCPBASH_ROOTS_REQUEST_TIMEOUT: decimal({
    usedBy: ['server'],
    default: 5,
    min: 0.1,
    doc: "seconds to wait for the client's `roots/list` answer",
  }),
  MCPBASH_ROOTS_DEBOUNCE_INTERVAL: decimal({
    usedBy: ['server'],
    default: 1,
    min: 0,
    doc: 'seconds to wait after `roots/list_changed` before asking again',
  }),
  MCPBASH_SHUTDOWN_TIMEOUT: decimal({
    usedBy: ['server'],
    default: 5,
    min: 0,
    doc:
      'seconds running requests may finish after `shutdown` or the end of input (D30); also how long the ' +
      'flush of stdout at exit waits while the client takes nothing (at least 1 s; a client that reads, ' +
      'however slowly, gets all, D266)',
  }),
  MCPBASH_IDLE_TIMEOUT: int({
    usedBy: ['server'],
    default: 3600,
    min: 0,
    doc: 'seconds without input and work before the server exits; 0 = never',
  }),
  MCPBASH_IDLE_TIMEOUT_ENABLED: bool({
    usedBy: ['server'],
    default: true,
    doc: 'false turns the idle timeout off',
  }),
  MCPBASH_ORPHAN_CHECK_ENABLED: bool({
    usedBy: ['server'],
    default: (read) => process.platform !== 'win32' && read('MCPBASH_CI_MODE') !== true,
    defaultDoc: 'true (false on Windows and with `MCPBASH_CI_MODE`)',
    doc: 'exit when the parent process is gone',
  }),
  MCPBASH_ORPHAN_CHECK_INTERVAL: int({
    usedBy: ['server'],
    default: 30,
    min: 1,
    doc: 'seconds between those checks',
  }),
  MCPBASH_CI_MODE: bool({
    usedBy: ['server'],
    default: false,
    doc: 'in 2.x only: the orphan check is off by default',
  }),
  MCPBASH_COMPAT_BATCHES: bool({
    usedBy: ['server'],
    default: false,
    doc: 'accept JSON-RPC batches under every protocol version',
  }),
  MCPBASH_FORCE_MINIMAL: bool({
    usedBy: ['server', 'tools', 'cli:registry', 'cli:health'],
    default: false,
    doc: 'minimal mode: only lifecycle, ping and logging',
  }),
});
