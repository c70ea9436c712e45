import { PassThrough } from 'node:stream';
import t from 'tap';
import { frameworkHomeAt } from '../../../src/assets/framework-home.js';
import { loadServerConfig } from '../../../src/config/server-config.js';
import { McpServer } from '../../../src/mcp/mcp-server.js';
import { openProject } from '../../../src/project/project-context.js';
import { fixtureProject } from '../../helpers/fixtures.js';
import { MemoryTransport } from '../../helpers/memory-transport.js';
import { repoRoot } from '../../helpers/paths.js';
import { scratchDir } from '../../helpers/scratch.js';

/** A transport whose close fails, as a stdout that cannot be flushed would. */
class FailingCloseTransport extends MemoryTransport {
  override async close(): Promise<void> {
    throw new Error('stdout is gone');
  }
}

/** A transport whose close never resolves, as a stdout the client stopped reading would. */
class StuckTransport extends MemoryTransport {
  override close(): Promise<void> {
    return new Promise(() => {});
  }
}

/** A server over `transport` with these settings; its stderr is collected in `diagnostics()`. */
function serverOver(transport: MemoryTransport, settings: Record<string, string> = {}) {
  const env = { MCPBASH_ORPHAN_CHECK_ENABLED: 'false', MCPBASH_IDLE_TIMEOUT: '0', ...settings };
  const home = frameworkHomeAt(repoRoot);
  if (!home) throw new Error('the source tree is not a framework home');
  const stderr = new PassThrough();
  let text = '';
  stderr.on('data', (chunk: Buffer) => {
    text += chunk.toString();
  });
  const server = new McpServer({
    input: new PassThrough(),
    output: new PassThrough(),
    stderr,
    env,
    config: loadServerConfig(env),
    home,
    project: openProject(fixtureProject('tools')),
    stateDir: scratchDir('mcpbash-stop-'),
    transport,
  });
  return { server, diagnostics: () => text };
}

t.test('a stdout that never flushes holds the stop for MCPBASH_SHUTDOWN_TIMEOUT at most', async (t) => {
  const { server, diagnostics } = serverOver(new StuckTransport(), { MCPBASH_SHUTDOWN_TIMEOUT: '1' });
  const ended = server.run();
  const started = Date.now();
  void server.stop(143, 'abort');
  t.equal(await ended, 143, 'run() resolves with the stop status');
  t.ok(Date.now() - started >= 900, 'the flush had its time');
  t.match(diagnostics(), /the client is not reading; unsent output dropped/);
});

t.test('a second signal gives up the flush at once', async (t) => {
  const { server } = serverOver(new StuckTransport(), { MCPBASH_SHUTDOWN_TIMEOUT: '600' });
  const ended = server.run();
  void server.stop(143, 'abort');
  // The second signal, once the first stop is under way.
  setImmediate(() => void server.stop(130, 'abort'));
  t.equal(await ended, 143, 'the first signal gives the exit status');
});

t.test('a failing shutdown step is reported and the session still ends with its exit status', async (t) => {
  const { server, diagnostics } = serverOver(new FailingCloseTransport());
  const ended = server.run();
  void server.stop(143, 'abort');
  t.equal(await ended, 143, 'run() resolves with the stop status');
  t.match(diagnostics(), /shutdown: could not flush stdout: stdout is gone/, 'the failed step is on stderr');
});
