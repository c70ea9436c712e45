/**
 * Every shipped example project becomes a valid bundle (the official `mcpb validate`)
 * with the expected layout and a small size; one of them (declared in register.json:
 * manual tools, an echo-provider resource, a prompt) is also served from its bundle.
 */
import { readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import t from 'tap';
import { sharedCliEnv } from '../../helpers/cli-projects.js';
import { copyProject } from '../../helpers/fixtures.js';
import { launchFromManifest, type Manifest, mcpbUnpack, mcpbValidate } from '../../helpers/mcpb.js';
import { repoRoot } from '../../helpers/paths.js';
import { runBinary } from '../../helpers/run-binary.js';
import { scratchDir } from '../../helpers/scratch.js';
import { connectSdkClient } from '../../helpers/sdk-client.js';

const env = sharedCliEnv({ GIT_CONFIG_NOSYSTEM: '1' });
const examplesDir = join(repoRoot, 'assets', 'examples');
const examples = readdirSync(examplesDir, { withFileTypes: true })
  .filter((entry) => entry.isDirectory())
  .map((entry) => entry.name)
  .sort();

/** What some examples need beyond the default directories. */
const INCLUDES: Record<string, string> = {
  '04-roots-basics': 'config sandbox',
  '12-config-and-downloads': 'config.example.json',
};
const BUNDLED = ['tools', 'resources', 'prompts', 'completions', 'server.d', 'lib', 'providers', 'ui', 'VERSION'];

function filesUnder(root: string, rel: string): string[] {
  const abs = join(root, rel);
  let stat: ReturnType<typeof statSync>;
  try {
    stat = statSync(abs);
  } catch {
    return [];
  }
  if (!stat.isDirectory()) return [rel];
  return readdirSync(abs).flatMap((name) => filesUnder(root, join(rel, name)));
}

const unpacked = new Map<string, { dir: string; manifest: Manifest }>();

t.test('every example bundles into a valid .mcpb with the expected files', async (t) => {
  for (const example of examples) {
    const project = copyProject(join(examplesDir, example), example);
    const include = INCLUDES[example];
    writeFileSync(
      join(project, 'mcpb.conf'),
      `MCPB_AUTHOR_NAME="mcp-bash examples"\n${include ? `MCPB_INCLUDE="${include}"\n` : ''}`,
    );
    const out = scratchDir('mcpbash-example-bundle-');
    const run = await runBinary(['bundle', '--output', out], { env, cwd: project });
    t.equal(run.code, 0, `${example}: bundle exits 0 (${run.stderr.trim()})`);
    const [file] = readdirSync(out);
    t.match(file, /\.mcpb$/, `${example}: one .mcpb written`);
    const path = join(out, file as string);
    t.ok(statSync(path).size < 1024 * 1024, `${example}: under 1 MB (${statSync(path).size} bytes)`);
    const dir = join(scratchDir('mcpbash-example-unpacked-'), example);
    const manifest = await mcpbUnpack(path, dir);
    const verdict = mcpbValidate(dir);
    t.ok(
      verdict.valid && verdict.issues.length === 0,
      `${example}: mcpb validate passes ${verdict.output} ${verdict.issues}`,
    );
    const expected = [...BUNDLED, ...(include ?? '').split(' ').filter(Boolean)]
      .flatMap((rel) => filesUnder(project, rel))
      .filter((rel) => !rel.startsWith('.registry'))
      .sort();
    const actual = filesUnder(join(dir, 'server'), '.')
      .map((rel) => relative('.', rel))
      .filter((rel) => !rel.startsWith('.registry/') && rel !== 'mcp-bash.cjs')
      .sort();
    t.same(actual, expected, `${example}: server/ holds the project's files`);
    t.ok(statSync(join(dir, 'server', '.registry', 'tools.json')).isFile(), `${example}: static registry`);
    unpacked.set(example, { dir, manifest });
  }
});

t.test('09-registry-overrides is served from its bundle (register.json entries)', async (t) => {
  const bundle = unpacked.get('09-registry-overrides');
  if (!bundle) return t.fail('the example was not bundled');
  const { manifest, dir } = bundle;
  t.match(manifest.tools, [{ name: 'example-clock', description: /Tells the current date and time/ }]);
  t.match(manifest.prompts, [
    { name: 'summarize', arguments: ['topic'], text: /^Summarize {{topic}} in three short bullet points/ },
  ]);
  const launch = launchFromManifest(manifest, dir);
  const home = scratchDir('mcpbash-fresh-home-');
  const { client, stderr } = await connectSdkClient({
    env: { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: home, ...launch.env },
    launch: { ...launch, command: process.execPath },
  });
  try {
    t.same(
      (await client.listTools()).tools.map((tool) => tool.name),
      ['example-clock'],
    );
    const call = await client.callTool({ name: 'example-clock', arguments: { zone: 'utc' } });
    t.notOk(call.isError, `tools/call: ${JSON.stringify(call)} ${stderr()}`);
    const read = await client.readResource({ uri: 'echo://Registered%20in%20register.json' });
    t.match(read.contents[0], { text: /Registered in register\.json/ }, 'resources/read (echo provider)');
    const prompt = await client.getPrompt({ name: 'summarize', arguments: { topic: 'bundles' } });
    t.match(prompt.messages[0]?.content, { type: 'text', text: /bundles/ }, 'prompts/get');
  } finally {
    await client.close();
  }
});

t.test('13-ui-basics is served from its bundle: the views, their static registry, _meta.ui', async (t) => {
  const bundle = unpacked.get('13-ui-basics');
  if (!bundle) return t.fail('the example was not bundled');
  const { manifest, dir } = bundle;
  t.ok(statSync(join(dir, 'server', 'ui', 'about', 'index.html')).isFile(), 'the standalone ui/ is bundled (D15)');
  const registry = JSON.parse(readFileSync(join(dir, 'server', '.registry', 'ui-resources.json'), 'utf8'));
  t.same(
    registry.items.map((item: { uri: string }) => item.uri),
    [
      'ui://example-ui-basics/about',
      'ui://example-ui-basics/example-add-contact',
      'ui://example-ui-basics/example-contacts',
    ],
    'the static registry holds the views',
  );
  const launch = launchFromManifest(manifest, dir);
  const home = scratchDir('mcpbash-fresh-home-');
  const { client, stderr } = await connectSdkClient({
    env: { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: home, ...launch.env },
    launch: { ...launch, command: process.execPath },
    capabilities: {
      capabilities: { extensions: { 'io.modelcontextprotocol/ui': { mimeTypes: ['text/html;profile=mcp-app'] } } },
    },
  });
  try {
    const contacts = (await client.listTools()).tools.find((tool) => tool.name === 'example-contacts');
    t.match(contacts?._meta, { ui: { resourceUri: 'ui://example-ui-basics/example-contacts' } }, stderr());
    const read = await client.readResource({ uri: 'ui://example-ui-basics/example-contacts' });
    t.match(read.contents[0], { mimeType: 'text/html;profile=mcp-app', text: /<h2>Contacts<\/h2>/ });
  } finally {
    await client.close();
  }
});
