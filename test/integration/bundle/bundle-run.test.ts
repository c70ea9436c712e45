/**
 * A bundle made by the binary, unpacked by the official MCPB tools and started exactly as
 * its manifest's mcp_config says, serves its project through the official SDK client: the
 * node runtime under Node 20 and 22 (on a machine that never ran mcp-bash, and with a
 * data dir it cannot write), the binary runtime through its launcher.
 */
import { readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import t, { type Test } from 'tap';
import { sharedCliEnv } from '../../helpers/cli-projects.js';
import { fixtureProject } from '../../helpers/fixtures.js';
import {
  type Launch,
  launchFromManifest,
  type Manifest,
  mcpbUnpack,
  mcpbValidate,
  node22Path,
} from '../../helpers/mcpb.js';
import { binaryPath } from '../../helpers/paths.js';
import { runBinary } from '../../helpers/run-binary.js';
import { scratchDir } from '../../helpers/scratch.js';
import { connectSdkClient } from '../../helpers/sdk-client.js';

const env = sharedCliEnv({ GIT_CONFIG_NOSYSTEM: '1' });
const USER_VALUES = { greeting: 'Howdy', workspace: '/tmp' };

async function bundleAndUnpack(t: Test, extraArgs: string[] = []): Promise<{ dir: string; manifest: Manifest }> {
  const project = fixtureProject('bundle-demo');
  const out = scratchDir('mcpbash-bundle-out-');
  const run = await runBinary(['bundle', '--output', out, ...extraArgs], { env, cwd: project, timeoutMs: 120_000 });
  t.equal(run.code, 0, `bundle exits 0: ${run.stderr}`);
  const dir = join(scratchDir('mcpbash-unpacked-'), 'bundle-demo');
  const manifest = await mcpbUnpack(join(out, 'bundle-demo-1.2.3.mcpb'), dir);
  const verdict = mcpbValidate(dir);
  t.ok(verdict.valid, `mcpb validate accepts the manifest: ${verdict.output}`);
  t.same(verdict.issues, [], 'no schema issues');
  return { dir, manifest };
}

/** A first run on a clean machine: an empty HOME, the client's env on top. */
function clientEnv(launch: Launch, extra: Record<string, string> = {}): Record<string, string> {
  const home = scratchDir('mcpbash-fresh-home-');
  return { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: home, ...launch.env, ...extra };
}

/** tools/list, tools/call, resources/read and prompts/get through the official client. */
async function exerciseServer(t: Test, launch: Launch, processEnv: Record<string, string>): Promise<void> {
  const { client, stderr } = await connectSdkClient({ env: processEnv, launch });
  try {
    const tools = await client.listTools();
    t.same(
      tools.tools.map((tool) => tool.name),
      ['greet'],
      'tools/list',
    );
    const call = await client.callTool({ name: 'greet', arguments: { name: 'Ada' } });
    t.notOk(call.isError, `tools/call succeeds: ${JSON.stringify(call)} ${stderr()}`);
    t.match(
      call.structuredContent,
      {
        result: { message: 'Howdy, Ada!', motto: 'Small scripts, well tested.', workspace: '/tmp' },
      },
      'the tool sees user_config (env map) and the MCPB_INCLUDE data',
    );
    const resources = await client.listResources();
    const notes = resources.resources.find((resource) => resource.name === 'notes');
    t.ok(notes?.uri.startsWith('file://'), 'the file resource is listed with a file:// URI');
    const read = await client.readResource({ uri: notes?.uri ?? '' });
    t.match(read.contents[0], { text: 'Notes shipped inside the bundle.\n' }, 'resources/read');
    const prompt = await client.getPrompt({ name: 'review', arguments: { topic: 'the parser' } });
    t.match(
      prompt.messages[0]?.content,
      { type: 'text', text: 'Review the parser for correctness and clarity.\n' },
      'prompts/get',
    );
  } finally {
    await client.close();
  }
}

t.test('node runtime: the manifest, the layout, and the server under Node 20 and Node 22', async (t) => {
  const { dir, manifest } = await bundleAndUnpack(t);
  t.match(manifest.server, {
    type: 'node',
    entry_point: 'server/mcp-bash.cjs',
    mcp_config: { command: 'node', args: ['${__dirname}/server/mcp-bash.cjs', '--', '${user_config.workspace}'] },
  });
  t.same(manifest.compatibility.runtimes, { node: '>=20.0.0' }, 'compatibility.runtimes.node declared');
  t.equal(statSync(join(dir, 'server/tools/greet/tool.sh')).mode & 0o777, 0o755, 'exec bits survive');
  t.ok(statSync(join(dir, 'server/data/motto.txt')).isFile(), 'MCPB_INCLUDE data/ is in server/');
  t.ok(statSync(join(dir, 'server/.registry/tools.json')).isFile(), 'the static registry is in the bundle');
  t.ok(
    statSync(join(dir, 'icon.png')).isFile() && statSync(join(dir, 'docs/screenshot.png')).isFile(),
    'images at the root',
  );

  const launch = launchFromManifest(manifest, dir, USER_VALUES);
  t.equal(launch.command, 'node');
  const node20 = { ...launch, command: process.execPath };
  t.test('Node 20 (this node), fresh HOME', async (t) => {
    t.match(process.version, /^v20\./, 'the machine node is Node 20');
    await exerciseServer(t, node20, clientEnv(launch));
  });
  const node22 = node22Path();
  t.test(
    'Node 22 (the pinned build node), fresh HOME',
    { skip: node22 ? false : 'no Node 22 binary in .cache/' },
    async (t) => {
      await exerciseServer(t, { ...launch, command: node22 as string }, clientEnv(launch));
    },
  );
  t.test('a data dir that cannot be written: the framework files go to a private temp dir', async (t) => {
    const blocker = join(scratchDir('mcpbash-ro-'), 'a-file');
    writeFileSync(blocker, 'not a directory');
    await exerciseServer(t, node20, clientEnv(launch, { XDG_DATA_HOME: join(blocker, 'data') }));
  });
  t.test('static registry mode serves the registry built at bundle time', async (t) => {
    const meta = join(dir, 'server/tools/greet/tool.meta.json');
    writeFileSync(
      meta,
      readFileSync(meta, 'utf8').replace('Greets someone with the configured greeting.', 'Changed after bundling.'),
    );
    const describe = async (processEnv: Record<string, string>) => {
      const { client } = await connectSdkClient({ env: processEnv, launch: node20 });
      try {
        return (await client.listTools()).tools[0]?.description;
      } finally {
        await client.close();
      }
    };
    t.equal(await describe(clientEnv(launch)), 'Greets someone with the configured greeting.', 'the bundled registry');
    t.equal(
      await describe(clientEnv(launch, { MCPBASH_STATIC_REGISTRY: '0' })),
      'Changed after bundling.',
      'discovery sees the change',
    );
  });
});

t.test(
  'binary runtime: the native binary copies itself, and the launcher starts it',
  { skip: process.platform === 'linux' && !binaryPath.endsWith('.cjs') ? false : 'needs the native linux binary' },
  async (t) => {
    const { dir, manifest } = await bundleAndUnpack(t, ['--runtime', 'binary', '--platform', 'linux']);
    t.match(manifest.server, {
      type: 'binary',
      entry_point: 'server/run-server.sh',
      mcp_config: { command: '${__dirname}/server/run-server.sh' },
    });
    t.same(manifest.compatibility.platforms, ['linux']);
    t.equal(
      statSync(join(dir, 'server/bin/mcp-bash-linux-x64')).size,
      statSync(binaryPath).size,
      'this binary, copied',
    );
    const launch = launchFromManifest(manifest, dir, USER_VALUES);
    await exerciseServer(t, launch, clientEnv(launch, { MCPB_SKIP_LOGIN_SHELL: '1' }));
  },
);
