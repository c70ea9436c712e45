import { ListRootsRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import t from 'tap';
import { fixtureProject } from '../../helpers/fixtures.js';
import { connectHttpClient, startHttpServer } from '../../helpers/http-server.js';
import { toolEnv } from '../../helpers/run-binary.js';

// Over HTTP a client's roots name directories on the client's machine: they must not widen
// what the server reads unless the operator says so (D289). Tools still see them.

type Content = Array<{ type: string; text?: string; resource?: { uri: string } }>;

/** A session whose client answers roots/list with the whole file system. */
async function rootClient(url: string) {
  const { client } = await connectHttpClient(url, { name: 'roots', capabilities: { capabilities: { roots: {} } } });
  client.setRequestHandler(ListRootsRequestSchema, async () => ({ roots: [{ uri: 'file:///', name: 'everything' }] }));
  // roots/list travels on the GET stream: wait until the tools see the client's root.
  const deadline = Date.now() + 10_000;
  let seen: string[] = [];
  while (!seen.includes('/') && Date.now() < deadline) {
    const dump = (await client.callTool({ name: 'roots-dump' })).structuredContent as {
      roots: Array<{ path: string }>;
    };
    seen = dump.roots.map((root) => root.path);
  }
  return { client, seen };
}

t.test("over HTTP a client root of / does not let the client read the server's files", async (t) => {
  const server = await startHttpServer(t, { env: toolEnv({ MCPBASH_PROJECT_ROOT: fixtureProject('tools') }) });
  const { client, seen } = await rootClient(server.url);
  t.same(seen, ['/'], 'tools see the roots the client sent');
  await t.rejects(client.readResource({ uri: 'file:///etc/passwd' }), /Resource outside allowed roots/);
  const embed = (await client.callTool({ name: 'embed' })).content as Content;
  t.notOk(
    embed.some((item) => item.resource?.uri === 'file:///etc/hostname'),
    "a tool cannot attach a file outside the server's own roots either",
  );
  t.ok(embed.some((item) => /\/etc\/hostname was left out: outside the MCP roots/.test(item.text ?? '')));
  await client.close();
});

t.test('MCPBASH_HTTP_TRUST_CLIENT_ROOTS=true lets them widen it, as over stdio', async (t) => {
  const server = await startHttpServer(t, {
    env: toolEnv({ MCPBASH_PROJECT_ROOT: fixtureProject('tools'), MCPBASH_HTTP_TRUST_CLIENT_ROOTS: 'true' }),
  });
  const { client } = await rootClient(server.url);
  const read = await client.readResource({ uri: 'file:///etc/passwd' });
  t.match(read.contents[0], { uri: 'file:///etc/passwd', text: /^root:/ });
  const embed = (await client.callTool({ name: 'embed' })).content as Content;
  t.ok(embed.some((item) => item.resource?.uri === 'file:///etc/hostname'));
  await client.close();
});
