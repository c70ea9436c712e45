import t from 'tap';
import { fixtureProject } from '../../helpers/fixtures.js';
import { toolEnv } from '../../helpers/run-binary.js';
import { connectSdkClient, sdkEnv } from '../../helpers/sdk-client.js';

for (const version of ['2025-11-25', '2025-06-18', '2025-03-26', '2024-11-05']) {
  t.test(`the official SDK client connects with protocol ${version}, pings, lists and calls tools`, async (t) => {
    const project = fixtureProject('tools');
    const { client } = await connectSdkClient({
      env: sdkEnv(toolEnv({ MCPBASH_PROJECT_ROOT: project })),
      protocolVersion: version,
    });
    t.equal(client.getServerVersion()?.name, 'tools-fixture');
    const capabilities = client.getServerCapabilities();
    t.ok(capabilities?.tools, 'tools capability');
    t.equal(Boolean(capabilities?.completions), version >= '2025-06-18', 'completions only from 2025-06-18');
    t.same(await client.ping(), {});
    const { tools } = await client.listTools();
    t.ok(
      tools.some((tool) => tool.name === 'echo-json'),
      'the client accepts our tool definitions',
    );
    const result = await client.callTool({ name: 'echo-json', arguments: { text: 'sdk' } });
    t.match(result.structuredContent, { args: { text: 'sdk' } });
    const schemaTool = await client.callTool({ name: 'outputs-schema', arguments: { mode: 'good' } });
    t.same(
      schemaTool.structuredContent,
      { count: 3, label: 'x' },
      'the client validated our structuredContent against the outputSchema',
    );
    const failed = await client.callTool({ name: 'exit-nonzero' });
    t.equal(failed.isError, true);
    const timedOut = await client.callTool({ name: 'timeout-fixed' });
    t.equal(timedOut.isError, true, "timeout results pass the client's validation");
    await client.close();
  });
}

t.test("progress notifications reach the SDK client's onprogress while the tool runs", async (t) => {
  const { client } = await connectSdkClient({
    env: sdkEnv(toolEnv({ MCPBASH_PROJECT_ROOT: fixtureProject('tools') })),
  });
  const seen: Array<{ progress: number; total?: number; message?: string }> = [];
  const result = await client.callTool({ name: 'progress-live' }, undefined, {
    onprogress: (progress) => {
      seen.push(progress);
    },
  });
  t.match(result.content, [{ type: 'text', text: 'done' }]);
  t.same(seen, [{ progress: 10, total: 100, message: 'started' }]);
  await client.close();
});
