import { ElicitRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import t from 'tap';
import { toolEnv } from '../../helpers/run-binary.js';
import { connectSdkClient, sdkEnv } from '../../helpers/sdk-client.js';
import { sdkToolsProject } from '../../helpers/sdk-tools-project.js';

// Every SDK elicitation helper, and a schema a 1.x tool wrote by hand (items.oneOf for a
// titled multi-select), through the official client: it checks each requestedSchema
// against MCP's schema and each answer against the requested schema.
const LEGACY_SCHEMA = JSON.stringify({
  type: 'object',
  properties: { picks: { type: 'array', items: { oneOf: [{ const: 'x', title: 'Ex' }] } } },
  required: ['picks'],
});
const tool = `ask() { "$@" || true; }
printf '{"string":%s,"confirm":%s,"choice":%s,"titled":%s,"multi":%s,"titledMulti":%s,"legacy":%s}' \\
  "$(ask mcp_elicit_string 'string?' name)" \\
  "$(ask mcp_elicit_confirm 'confirm?')" \\
  "$(ask mcp_elicit_choice 'choice?' x y)" \\
  "$(ask mcp_elicit_titled_choice 'titled?' 'x:Ex' 'y:Why')" \\
  "$(ask mcp_elicit_multi_choice 'multi?' x y)" \\
  "$(ask mcp_elicit_titled_multi_choice 'titledMulti?' 'x:Ex' 'y:Why')" \\
  "$(ask mcp_elicit 'legacy?' '${LEGACY_SCHEMA}')"
`;

const answers: Record<string, Record<string, unknown>> = {
  'string?': { name: 'Ada' },
  'confirm?': { confirmed: true },
  'choice?': { choice: 'x' },
  'titled?': { choice: 'y' },
  'multi?': { choices: ['x', 'y'] },
  'titledMulti?': { choices: ['x'] },
  'legacy?': { picks: ['x'] },
};

t.test(
  'the official client accepts the schema of every elicitation helper and their answers reach the tool',
  async (t) => {
    const root = sdkToolsProject('mcpbash-elicit-sdk-', { 'ask-all': tool });
    const { client } = await connectSdkClient({
      env: sdkEnv(toolEnv({ MCPBASH_PROJECT_ROOT: root })),
      capabilities: { capabilities: { elicitation: { form: {} } } },
    });
    t.teardown(() => client.close());
    const asked: string[] = [];
    client.setRequestHandler(ElicitRequestSchema, async (request) => {
      asked.push(request.params.message);
      return { action: 'accept', content: answers[request.params.message] as Record<string, string> };
    });
    const result = await client.callTool({ name: 'ask-all', arguments: {} });
    t.equal(result.isError, false);
    t.same(asked, Object.keys(answers), 'every question reached the client');
    const expected = Object.fromEntries(
      Object.entries(answers).map(([question, content]) => [question.replace('?', ''), { action: 'accept', content }]),
    );
    t.same(result.structuredContent, expected, 'each answer went back to the tool as it was given');
  },
);
