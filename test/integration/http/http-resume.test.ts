import t from 'tap';
import {
  postHeaders,
  rawSession,
  readUntil,
  sseIds,
  sseMessages,
  startToolsServer,
} from '../../helpers/http-server.js';

// Resumability (MCP 2025-11-25, "Resumability and Redelivery"): a client whose stream
// broke resumes it with GET and Last-Event-ID, and gets what it missed on that stream,
// once, then the rest live - including the answer to its call.

t.test('a broken call stream is resumed with Last-Event-ID: nothing lost, nothing twice', async (t) => {
  const server = await startToolsServer(t);
  const session = await rawSession(server.url);
  const headers = { 'mcp-protocol-version': '2025-11-25', 'mcp-session-id': session };

  const first = new AbortController();
  const call = await fetch(server.url, {
    method: 'POST',
    headers: postHeaders(headers),
    body: JSON.stringify({
      jsonrpc: '2.0',
      id: 7,
      method: 'tools/call',
      params: { name: 'slow', arguments: { seconds: 2 }, _meta: { progressToken: 'resume' } },
    }),
    signal: first.signal,
  });
  const reader = (call.body as ReadableStream<Uint8Array>).getReader();
  const before = await readUntil(reader, (text) => sseMessages(text).length >= 2);
  first.abort();
  const seenIds = sseIds(before);
  t.ok(seenIds.length >= 3, 'a priming event, then numbered events');
  t.match(before, /^id: [^\n]+\nretry: 1000\ndata: \n\n/, 'the priming event comes first, with the reconnection time');
  const lastSeen = seenIds[seenIds.length - 1] as string;
  const ticksBefore = sseMessages(before).map((message) => (message.params as { progress: number }).progress);

  const resumed = await fetch(server.url, {
    headers: { ...headers, accept: 'text/event-stream', 'last-event-id': lastSeen },
  });
  t.equal(resumed.status, 200);
  const after = await (resumed as Response).text();
  const messages = sseMessages(after);
  const answer = messages[messages.length - 1];
  t.match(
    answer,
    { id: 7, result: { content: [{ text: 'finished after 2 s' }] } },
    'the answer arrives on the resumed stream',
  );
  const ticksAfter = messages
    .filter((message) => message.method === 'notifications/progress')
    .map((message) => (message.params as { progress: number }).progress);
  const all = [...ticksBefore, ...ticksAfter];
  t.same(
    all,
    all.map((_tick, index) => index + 1),
    `every progress event exactly once, in order (${all.join(',')})`,
  );
  t.equal(sseIds(after)[0], lastSeen, 'the resumed stream primes at the point resumed from');
  const messageIds = [...sseIds(before, true), ...sseIds(after, true)];
  t.same([...new Set(messageIds)], messageIds, 'no message is sent twice');
  t.equal(messageIds.length, all.length + 1, 'every message has an id');

  const unknown = await fetch(server.url, {
    headers: { ...headers, accept: 'text/event-stream', 'last-event-id': 'nope-1' },
  });
  t.equal(unknown.status, 400, 'a Last-Event-ID that names no stream of the session is refused');
  await unknown.text();
  const other = await rawSession(server.url);
  const stolen = await fetch(server.url, {
    headers: { ...headers, 'mcp-session-id': other, accept: 'text/event-stream', 'last-event-id': lastSeen },
  });
  t.equal(stolen.status, 400, "another session cannot replay this session's stream");
  await stolen.text();
});
