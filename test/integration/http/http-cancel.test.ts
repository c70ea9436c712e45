import { existsSync } from 'node:fs';
import { join } from 'node:path';
import t from 'tap';
import { postHeaders, rawSession, startToolsServer } from '../../helpers/http-server.js';
import { eventually } from '../../helpers/processes.js';
import { scratchDir } from '../../helpers/scratch.js';

// A request cancelled with notifications/cancelled gets no answer (MCP cancellation), but
// the POST that carried it is still answered as Streamable HTTP requires: an event stream
// (here one that ends without the answer), never a bare 202.

t.test('a cancelled call: its POST gets an event stream that ends without an answer', async (t) => {
  const server = await startToolsServer(t, { MCPBASH_TOOL_ALLOWLIST: '*' });
  const session = await rawSession(server.url);
  const headers = postHeaders({ 'mcp-session-id': session, 'mcp-protocol-version': '2025-11-25' });
  const marker = join(scratchDir('mcpbash-http-cancel-'), 'm');
  const call = fetch(server.url, {
    method: 'POST',
    headers,
    body: JSON.stringify({
      jsonrpc: '2.0',
      id: 7,
      method: 'tools/call',
      params: { name: 'slow', arguments: { seconds: 60, marker } },
    }),
  });
  t.ok(await eventually(() => existsSync(`${marker}.pid`), 10_000), 'the tool is running');
  const cancel = await fetch(server.url, {
    method: 'POST',
    headers,
    body: JSON.stringify({ jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: 7 } }),
  });
  t.equal(cancel.status, 202, 'the notification is accepted');
  const response = await call;
  t.equal(response.status, 200);
  t.match(response.headers.get('content-type'), /^text\/event-stream/);
  const text = await response.text();
  t.notMatch(text, /"id":7/, 'no answer for the cancelled request');
});
