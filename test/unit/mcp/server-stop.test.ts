import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import t from 'tap';
import { frameworkHomeAt } from '../../../src/assets/framework-home.js';
import { loadServerConfig } from '../../../src/config/server-config.js';
import { McpServer } from '../../../src/mcp/mcp-server.js';
import { openProject } from '../../../src/project/project-context.js';
import { fixtureProject } from '../../helpers/fixtures.js';
import { MemoryTransport } from '../../helpers/memory-transport.js';
import { repoRoot } from '../../helpers/paths.js';

/** A transport whose close fails, as a stdout that cannot be flushed would. */
class FailingCloseTransport extends MemoryTransport {
  override async close(): Promise<void> {
    throw new Error('stdout is gone');
  }
}

t.test('a failing shutdown step is reported and the session still ends with its exit status', async (t) => {
  const env = { MCPBASH_ORPHAN_CHECK_ENABLED: 'false', MCPBASH_IDLE_TIMEOUT: '0' };
  const home = frameworkHomeAt(repoRoot);
  if (!home) throw new Error('the source tree is not a framework home');
  const stderr = new PassThrough();
  let diagnostics = '';
  stderr.on('data', (chunk: Buffer) => {
    diagnostics += chunk.toString();
  });
  const stateDir = mkdtempSync(join(tmpdir(), 'mcpbash-stop-'));
  const server = new McpServer({
    input: new PassThrough(),
    output: new PassThrough(),
    stderr,
    env,
    config: loadServerConfig(env),
    home,
    project: openProject(fixtureProject('tools')),
    stateDir,
    transport: new FailingCloseTransport(),
  });
  const ended = server.run();
  void server.stop(143, 'abort');
  t.equal(await ended, 143, 'run() resolves with the stop status');
  t.match(diagnostics, /shutdown: could not flush stdout: stdout is gone/, 'the failed step is on stderr');
});
