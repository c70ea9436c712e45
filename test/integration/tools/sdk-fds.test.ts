/**
 * docs/TOOL-CONTRACT.md: the side channel uses no extra file descriptors, so a tool may use
 * fds 3-9 itself. A tool run by the real server opens, closes and redirects all of them, then
 * reports progress and logs through the SDK.
 */
import { chmodSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import t from 'tap';
import { startInitialized } from '../../helpers/mcp-process.js';
import { toolEnv } from '../../helpers/run-binary.js';
import { scratchDir } from '../../helpers/scratch.js';

const TOOL = `#!/usr/bin/env bash
set -euo pipefail
# The tool's own descriptors, before the SDK is loaded and while it works.
out="\${MCP_TOOL_ARGS_JSON#*\\"dir\\":\\"}"
out="\${out%%\\"*}"
exec 3>"$out/fd3" 4>"$out/fd4" 5>"$out/fd5" 6>"$out/fd6"
source "\${MCP_SDK:?}/tool-sdk.sh"
exec 7>"$out/fd7" 8>"$out/fd8" 9>"$out/fd9"
exec 5>&- 8>&-
exec 6>/dev/null 4</dev/null
printf 'three\\n' >&3
mcp_progress 25 "fds 3-9 in use"
mcp_log_info fd-tool "logged with fds 3-9 in use"
printf 'seven\\n' >&7
mcp_run_with_progress --pattern '([0-9]+)%' --extract match1 --interval 0.05 -- bash -c 'echo "50%" >&2; echo child-out'
mcp_log_warn fd-tool "second log"
mcp_progress 100 "done"
printf 'nine\\n' >&9
exec 3>&- 7>&- 9>&-
printf 'finished'
`;

function project(): { root: string; out: string } {
  const base = scratchDir('mcpbash-fds-');
  const root = join(base, 'project');
  const tool = join(root, 'tools', 'fd-tool');
  mkdirSync(tool, { recursive: true, mode: 0o755 });
  mkdirSync(join(root, 'server.d'), { mode: 0o755 });
  writeFileSync(join(root, 'server.d', 'server.meta.json'), JSON.stringify({ name: 'fds', version: '0.1.0' }));
  writeFileSync(
    join(tool, 'tool.meta.json'),
    JSON.stringify({ name: 'fd-tool', description: 'Uses fds 3-9 itself', timeoutSecs: 30 }),
  );
  writeFileSync(join(tool, 'tool.sh'), TOOL);
  chmodSync(join(tool, 'tool.sh'), 0o755);
  for (const dir of [base, root, join(root, 'tools'), tool, join(root, 'server.d')]) chmodSync(dir, 0o755);
  const out = join(base, 'out');
  mkdirSync(out);
  return { root, out };
}

t.test('progress and logs arrive while the tool uses fds 3-9 for its own files', async (t) => {
  const { root, out } = project();
  const server = await startInitialized({ projectRoot: root, env: toolEnv() });
  t.teardown(() => server.close());
  const response = await server.request(
    'tools/call',
    { name: 'fd-tool', arguments: { dir: out }, _meta: { progressToken: 'fd' } },
    undefined,
    30_000,
  );
  t.match(response.result, { content: [{ type: 'text', text: 'child-out\nfinished' }] }, JSON.stringify(response));
  t.notOk((response.result as { isError?: boolean }).isError, 'the tool succeeded');

  const progress = server.notifications('notifications/progress').map((m) => [m.params?.progress, m.params?.message]);
  t.same(
    progress,
    [
      [25, 'fds 3-9 in use'],
      [50, '50%'],
      [100, 'done'],
    ],
    'every progress line arrived',
  );
  const logs = server
    .notifications('notifications/message')
    .filter((m) => m.params?.logger === 'fd-tool')
    .map((m) => [m.params?.level, m.params?.data]);
  t.same(
    logs,
    [
      ['info', 'logged with fds 3-9 in use'],
      ['warning', 'second log'],
    ],
    'every log line arrived',
  );

  const files = Object.fromEntries([3, 4, 5, 6, 7, 8, 9].map((fd) => [fd, readFileSync(join(out, `fd${fd}`), 'utf8')]));
  t.same(
    files,
    { 3: 'three\n', 4: '', 5: '', 6: '', 7: 'seven\n', 8: '', 9: 'nine\n' },
    'the fd files hold only what the tool wrote',
  );
  t.same(server.protocolViolations, []);
});
