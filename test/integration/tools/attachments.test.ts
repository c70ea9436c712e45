import { pathToFileURL } from 'node:url';
import t from 'tap';
import { fixtureProject } from '../../helpers/fixtures.js';
import { startInitialized } from '../../helpers/mcp-process.js';
import { toolEnv } from '../../helpers/run-binary.js';
import { scratchDir } from '../../helpers/scratch.js';

type Content = Array<Record<string, unknown>>;

t.test('a file in MCP_TOOL_CALL_DIR is attached whatever roots the client sends; one left out is named', async (t) => {
  // As Claude Code does: the client's one root is its own working directory, not the project.
  const clientDir = scratchDir('mcpbash-client-cwd-');
  const server = await startInitialized({
    projectRoot: fixtureProject('tools'),
    env: toolEnv(),
    capabilities: { roots: {} },
  });
  const ask = await server.waitFor((m) => m.method === 'roots/list');
  server.send({ jsonrpc: '2.0', id: ask.id, result: { roots: [{ uri: pathToFileURL(clientDir).href }] } });
  const reply = await server.request('tools/call', { name: 'embed', arguments: { format: 'calldir' } });
  const content = (reply.result as { content: Content }).content;
  t.match(content[1], {
    type: 'resource',
    resource: { text: 'made during the call\n', mimeType: 'text/plain', uri: /\/made\.txt$/ },
  });
  t.match(content[2], {
    type: 'text',
    text: /^Attachment .*\/data\/note\.txt was left out: outside the MCP roots \(files in MCP_TOOL_CALL_DIR can always/,
  });
  t.equal(content.length, 3);
  t.match(server.stderr, /embed: embedded resource .*note\.txt skipped: outside the MCP roots/);
  await server.close();
});
