import { existsSync, statSync } from 'node:fs';
import { join } from 'node:path';
import t from 'tap';
import { postHeaders, rawSession, startToolsServer } from '../../helpers/http-server.js';
import { eventually } from '../../helpers/processes.js';
import { scratchDir } from '../../helpers/scratch.js';

// D201: MCPBASH_MAX_CONCURRENT_REQUESTS is the whole process's, not each session's: N clients
// do not get N times the limit.

function marker(): string {
  return join(scratchDir('mcpbash-http-limit-'), 'm');
}

/** A tools/call of the fixture's `slow` tool in `session`; resolves with the time its answer ended. */
async function callSlow(url: string, session: string, seconds: number, mark: string): Promise<number> {
  const response = await fetch(url, {
    method: 'POST',
    headers: postHeaders({ 'mcp-session-id': session, 'mcp-protocol-version': '2025-11-25' }),
    body: JSON.stringify({
      jsonrpc: '2.0',
      id: 1,
      method: 'tools/call',
      params: { name: 'slow', arguments: { seconds, marker: mark } },
    }),
  });
  const text = await response.text();
  if (!text.includes(`finished after ${seconds} s`)) throw new Error(`unexpected answer: ${text}`);
  return Date.now();
}

t.test('two sessions share one MCPBASH_MAX_CONCURRENT_REQUESTS', async (t) => {
  const server = await startToolsServer(t, { MCPBASH_TOOL_ALLOWLIST: '*', MCPBASH_MAX_CONCURRENT_REQUESTS: '1' });
  const a = await rawSession(server.url);
  const b = await rawSession(server.url);
  const markA = marker();
  const markB = marker();
  const first = callSlow(server.url, a, 2, markA);
  t.ok(await eventually(() => existsSync(`${markA}.pid`), 10_000), "session a's call is running");
  const second = callSlow(server.url, b, 1, markB);
  const firstEnded = await first;
  await second;
  // With one slot for the process, b's tool can only start once a's has ended (its answer
  // follows at once); with a slot per session it would have started ~2 s earlier.
  const bStarted = statSync(`${markB}.pid`).mtimeMs;
  t.ok(
    bStarted >= firstEnded - 500,
    `b's tool started ${((firstEnded - bStarted) / 1000).toFixed(2)} s before a's answer (limit: 0.5 s)`,
  );
});
