import t from 'tap';
import { fixtureProject } from '../../helpers/fixtures.js';
import { startInProcess } from '../../helpers/in-process-server.js';
import type { McpSession } from '../../helpers/mcp-session.js';
import { toolEnv } from '../../helpers/run-binary.js';

// A progress token is the client's to match its notifications by: one JSON.parse would round
// (9007199254740993 reads as ...992) must come back digit for digit, as request ids do (D91).

/** Calls the progress-token fixture (two mcp_progress calls) with `token` written raw. */
async function callWithToken(server: McpSession, id: string, token: string): Promise<string> {
  const response = server.waitFor((m) => m.id === JSON.parse(id), 15_000, `the response to ${id}`);
  server.writeRaw(
    `{"jsonrpc":"2.0","id":${id},"method":"tools/call",` +
      `"params":{"name":"progress-token","_meta":{"progressToken":${token}}}}`,
  );
  const result = (await response).result as { content: Array<{ text: string }> };
  return result.content[0]?.text ?? '';
}

/** The raw stdout lines of progress notifications whose token is written exactly `token`. */
function progressLines(server: McpSession, token: string): string[] {
  return server.lines.filter(
    (line) => line.includes('"method":"notifications/progress"') && line.includes(`"progressToken":${token},`),
  );
}

t.test('a progress token beyond 2^53 is written back exactly, in every notification and to the tool', async (t) => {
  const server = await startInProcess({ projectRoot: fixtureProject('tools'), env: toolEnv() });
  const cases = [
    // A string id: the token alone must get the line its exact reading.
    { id: '"big"', token: '9007199254740993' },
    { id: '7', token: '-18446744073709551617' },
    // The control: a string token was always exact.
    { id: '"text"', token: '"9007199254740993"' },
  ];
  for (const { id, token } of cases) {
    const text = await callWithToken(server, id, token);
    const lines = progressLines(server, token);
    t.equal(lines.length, 2, `${token}: both progress notifications carry the token as sent`);
    t.match(lines[0], /"progress":50,"total":100,"message":"half way"/);
    const bare = token.replace(/^"|"$/g, '');
    t.equal(
      text,
      `token=${bare} meta={"progressToken":${token}}`,
      `${token}: MCP_PROGRESS_TOKEN and MCP_TOOL_META_JSON hold it exactly`,
    );
  }
  const progress = server.lines.filter((line) => line.includes('"method":"notifications/progress"'));
  t.equal(progress.length, 6, 'no other progress notifications (a rounded token would be one)');
  await server.close();
});
