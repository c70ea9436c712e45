import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import t from 'tap';
import { cli, newProject, parseJson, sharedCliEnv } from '../../helpers/cli-projects.js';

const env = sharedCliEnv();

interface ClaudeDesktopConfig {
  mcpServers: Record<string, { command: string; args: string[]; env: Record<string, string> }>;
}

t.test(
  "the seeds' recommended flow: new, scaffold tool, validate, config, then a real client calls the tool",
  async (t) => {
    const root = await newProject(t, env, 'flow-server');
    const scaffold = await cli(['scaffold', 'tool', 'flow-check'], env, root);
    t.equal(scaffold.code, 0, scaffold.stderr);
    const validate = await cli(['validate'], env, root);
    t.equal(validate.code, 0, validate.stdout);
    t.match(validate.stdout, /All checks passed/);
    const config = parseJson(
      t,
      (await cli(['config', '--client', 'claude-desktop'], env, root)).stdout,
      'config',
    ) as unknown as ClaudeDesktopConfig;
    const server = config.mcpServers['flow-server'];
    if (!server) throw new Error('no flow-server entry in the config');
    // What an MCP client does with the snippet: start `command args` with `env` (plus its defaults).
    const transport = new StdioClientTransport({
      command: server.command,
      args: server.args,
      env: { HOME: env.HOME as string, PATH: env.PATH as string, ...server.env },
      cwd: '/',
      stderr: 'pipe',
    });
    const client = new Client({ name: 'recommended-flow-test', version: '1.0.0' }, { capabilities: {} });
    await client.connect(transport);
    t.teardown(() => client.close());
    const { tools } = await client.listTools();
    t.same(tools.map((tool) => tool.name).sort(), ['flow-check', 'hello']);
    const result = await client.callTool({ name: 'flow-check', arguments: { exampleArg: 'from the client' } });
    t.equal(result.isError, false);
    t.same(result.structuredContent, { success: true, result: { message: 'flow-check received: from the client' } });
    const refused = await client.callTool({ name: 'flow-check', arguments: { exampleArg: 'x'.repeat(300) } });
    t.equal(refused.isError, true, 'an mcp_error result reaches the client as an error it can read (D33)');
    t.match(refused.structuredContent, { success: false, error: { type: 'invalid_argument' } });
    const hello = await client.callTool({ name: 'hello', arguments: {} });
    t.match(hello.structuredContent, { success: true, result: { message: 'Hello, World!' } });
  },
);
