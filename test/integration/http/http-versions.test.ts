import t from 'tap';
import { initializeBody, postHeaders, readUntil, sseIds, startToolsServer } from '../../helpers/http-server.js';

// 1.x's protocol versions over HTTP: negotiated as over stdio, batches where they were
// (2025-03-26), priming events only for clients that understand them (2025-11-25 on).

t.test('older protocol versions: negotiated, batches for 2025-03-26, no priming event', async (t) => {
  const server = await startToolsServer(t);
  const statelessServer = await startToolsServer(t, {}, ['--stateless']);

  async function open(version: string): Promise<Record<string, string>> {
    const init = await fetch(server.url, { method: 'POST', headers: postHeaders(), body: initializeBody(version) });
    t.match(await init.json(), { result: { protocolVersion: version } }, `${version} is negotiated`);
    const headers = { 'mcp-session-id': init.headers.get('mcp-session-id') as string };
    const ready = await fetch(server.url, {
      method: 'POST',
      headers: postHeaders(headers),
      body: JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' }),
    });
    t.equal(ready.status, 202, 'a notification is accepted with no body');
    await ready.text();
    return headers;
  }
  const pings = JSON.stringify([
    { jsonrpc: '2.0', id: 1, method: 'ping' },
    { jsonrpc: '2.0', id: 2, method: 'ping' },
  ]);

  const legacy = await open('2025-03-26');
  const batch = await fetch(server.url, { method: 'POST', headers: postHeaders(legacy), body: pings });
  t.same(
    await batch.json(),
    [
      { jsonrpc: '2.0', id: 1, result: {} },
      { jsonrpc: '2.0', id: 2, result: {} },
    ],
    'a 2025-03-26 batch is answered as one array (no header: the session speaks its version)',
  );

  const modern = await open('2025-06-18');
  const refused = await fetch(server.url, {
    method: 'POST',
    headers: postHeaders({ ...modern, 'mcp-protocol-version': '2025-06-18' }),
    body: pings,
  });
  t.equal(refused.status, 400, 'a batch where the version has none is input the server cannot accept');
  t.match(await refused.json(), {
    id: null,
    error: { code: -32600, message: /Batch arrays are not allowed for protocol 2025-06-18/ },
  });
  const alone = await fetch(server.url, {
    method: 'POST',
    headers: postHeaders({ ...modern, 'mcp-protocol-version': '2025-06-18' }),
    body: JSON.stringify({ jsonrpc: '2.0', id: 3, method: 'ping' }),
  });
  t.same(await alone.json(), { jsonrpc: '2.0', id: 3, result: {} }, 'the session goes on');
  const stateless = await fetch(statelessServer.url, {
    method: 'POST',
    headers: postHeaders({ 'mcp-protocol-version': '2025-11-25' }),
    body: pings,
  });
  t.equal(stateless.status, 400, 'stateless too');
  t.match(await stateless.json(), { id: null, error: { code: -32600 } });

  const oldest = await open('2024-11-05');
  const stream = await fetch(server.url, {
    method: 'POST',
    headers: postHeaders({ ...oldest, 'mcp-protocol-version': '2024-11-05' }),
    body: JSON.stringify({
      jsonrpc: '2.0',
      id: 3,
      method: 'tools/call',
      params: { name: 'slow', arguments: { seconds: 1 }, _meta: { progressToken: 'old' } },
    }),
  });
  const text = await readUntil((stream.body as ReadableStream<Uint8Array>).getReader(), (sofar) =>
    sofar.includes('"id":3'),
  );
  t.notMatch(text, /data: \n/, 'no priming event (empty data) for a 2024-11-05 client');
  t.ok(sseIds(text, true).length > 1, 'events still carry ids');
});
