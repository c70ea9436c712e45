import t from 'tap';
import { postHeaders, rawSession, startToolsServer } from '../../helpers/http-server.js';

// Over `serve --http` a call's progress travels as events of the POST's stream: a token (and
// an id) beyond 2^53 must come back there digit for digit, as over stdio.

t.test('progress events of a POST carry a token beyond 2^53 exactly as the client sent it', async (t) => {
  const server = await startToolsServer(t, { MCPBASH_TOOL_ALLOWLIST: '*' });
  const session = await rawSession(server.url);
  const response = await fetch(server.url, {
    method: 'POST',
    headers: postHeaders({ 'mcp-session-id': session, 'mcp-protocol-version': '2025-11-25' }),
    body:
      '{"jsonrpc":"2.0","id":9007199254740995,"method":"tools/call",' +
      '"params":{"name":"progress-token","_meta":{"progressToken":9007199254740993}}}',
  });
  t.match(response.headers.get('content-type'), /^text\/event-stream/);
  const data = (await response.text())
    .split('\n')
    .filter((line) => line.startsWith('data: {'))
    .map((line) => line.slice('data: '.length));
  const progress = data.filter((line) => line.includes('"method":"notifications/progress"'));
  t.equal(progress.length, 2, 'both progress notifications arrived');
  for (const line of progress) t.match(line, /"params":\{"progressToken":9007199254740993,"progress":/);
  const answer = data.find((line) => line.startsWith('{"jsonrpc":"2.0","id":9007199254740995,"result":'));
  t.match(answer, /token=9007199254740993 meta=\{\\"progressToken\\":9007199254740993\}/, 'the tool saw it exactly');
});
