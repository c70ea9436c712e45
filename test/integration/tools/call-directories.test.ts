import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import t from 'tap';
import { fixtureProject } from '../../helpers/fixtures.js';
import { startInitialized } from '../../helpers/mcp-process.js';
import { toolEnv } from '../../helpers/run-binary.js';
import { scratchDir } from '../../helpers/scratch.js';

// Each call's private directory comes from a pool made ahead of time; its name must not
// collide with a directory another process, or an earlier run, left in a shared state dir.
t.test('a kept state dir shared by two servers, one after the other and side by side', async (t) => {
  const stateDir = scratchDir('mcpbash-shared-state-');
  const env = toolEnv({ MCPBASH_STATE_DIR: stateDir, MCPBASH_PRESERVE_STATE: 'true' });
  const project = fixtureProject('tools');
  const expected = { isError: false, content: [{ type: 'text', text: 'plain text, not trimmed  \n' }] };
  const call = async (server: Awaited<ReturnType<typeof startInitialized>>, _label: string) =>
    (await server.request('tools/call', { name: 'echo-text', arguments: {} })).result;
  const first = await startInitialized({ projectRoot: project, env });
  for (const label of ['a', 'b', 'c']) t.match(await call(first, label), expected, `a first run: ${label}`);
  await first.close();
  const kept = readdirSync(join(stateDir, 'calls')).length;
  t.ok(kept >= 3, `the first run's call directories are kept (${kept})`);
  const [second, third] = await Promise.all([
    startInitialized({ projectRoot: project, env }),
    startInitialized({ projectRoot: project, env }),
  ]);
  for (const label of ['d', 'e', 'f']) {
    t.match(await call(second, label), expected, `a second run: ${label}`);
    t.match(await call(third, label), expected, `a third run beside it: ${label}`);
  }
  await Promise.all([second.close(), third.close()]);
});
