import { copyFileSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import t, { type Test } from 'tap';
import { type BundleFields, resolveBundleFields } from '../../../../src/distribution/bundle/bundle-fields.js';
import { collectImages } from '../../../../src/distribution/bundle/bundle-images.js';
import { buildManifest, type ManifestInput, serverEnv } from '../../../../src/distribution/bundle/manifest.js';
import { checkManifestFields, isEmail, isSemver } from '../../../../src/distribution/bundle/manifest-checks.js';
import { parseMcpbConf } from '../../../../src/distribution/bundle/mcpb-conf.js';
import type { ProjectInventory } from '../../../../src/distribution/bundle/project-inventory.js';
import { binaryLaunch, nodeLaunch } from '../../../../src/distribution/bundle/server-launch.js';
import { fakeExecutable } from '../../../helpers/fake-executables.js';
import { fixtureSource } from '../../../helpers/fixtures.js';
import { type Manifest, schemaIssues } from '../../../helpers/mcpb.js';

const inventory: ProjectInventory = {
  tools: [
    {
      name: 'greet',
      description: 'Greets.',
      path: 'greet/tool.sh',
      inputSchema: { type: 'object' },
      timeoutSecs: null,
    },
    { name: 'quiet', description: '', path: 'quiet/tool.sh', inputSchema: { type: 'object' }, timeoutSecs: null },
  ],
  resources: [],
  resourceTemplates: [],
  uiResources: [],
  prompts: [
    {
      name: 'review',
      description: 'Reviews.',
      path: 'review.txt',
      arguments: { type: 'object', properties: { topic: {} } },
      role: 'user',
    },
    {
      name: 'empty',
      description: 'Nothing.',
      path: 'empty.txt',
      arguments: { type: 'object', properties: {} },
      role: 'user',
    },
    {
      name: 'gone',
      description: 'Missing file.',
      path: 'gone.txt',
      arguments: { type: 'object', properties: {} },
      role: 'user',
    },
  ],
  registryEntries: [],
  warnings: [],
  notes: [],
};

/** A project using every field the manifest can carry. */
function richProject(t: Test) {
  const root = t.testdir({
    prompts: { 'review.txt': 'Review {{topic}}.\n', 'empty.txt': '  \n' },
    'uc.json': JSON.stringify({
      api_key: { type: 'string', title: 'API key', description: 'Your key', sensitive: true, required: true },
      limit: { type: 'number', title: 'Limit', description: 'Max items', min: 1, max: 100, default: 10 },
      folders: {
        type: 'directory',
        title: 'Folders',
        description: 'Where to look',
        multiple: true,
        default: ['${HOME}'],
      },
    }),
    'LONG.md': '# Long\n',
  });
  mkdirSync(join(root, 'server.d'));
  copyFileSync(join(fixtureSource('bundle-demo'), 'icon.png'), join(root, 'icon.png'));
  copyFileSync(join(fixtureSource('bundle-demo'), 'icon.png'), join(root, 'server.d', 'icon-16.png'));
  const meta = {
    name: 'rich',
    title: 'Rich Server',
    version: '1.0.0-beta.1+build.5',
    icons: [{ src: 'icon-16.png' }, { src: 'https://example.com/i.png', sizes: ['64x64'], theme: 'dark' }],
    screenshots: ['https://example.com/shot.png'],
    localization: { resources: 'i18n/${locale}.json', default_locale: 'en-US' },
    _meta: { 'com.example/x': { a: 1 } },
    platform_overrides: { win32: { env: { EXTRA: '1' } } },
  };
  const conf = parseMcpbConf(
    [
      'MCPB_AUTHOR_NAME="Ada"',
      'MCPB_AUTHOR_EMAIL="ada@example.com"',
      'MCPB_AUTHOR_URL="https://ada.example.com"',
      'MCPB_REPOSITORY="https://github.com/ada/rich"',
      'MCPB_LICENSE="MIT"',
      'MCPB_KEYWORDS="a b"',
      'MCPB_HOMEPAGE="https://h.example.com"',
      'MCPB_DOCUMENTATION="https://d.example.com"',
      'MCPB_SUPPORT="https://s.example.com"',
      'MCPB_PRIVACY_POLICIES="https://p.example.com"',
      'MCPB_COMPAT_CLAUDE_DESKTOP=">=0.10.0"',
      'MCPB_RUNTIME_PYTHON=">=3.10"',
      'MCPB_LONG_DESCRIPTION_FILE="LONG.md"',
      'MCPB_USER_CONFIG_FILE="uc.json"',
      'MCPB_USER_CONFIG_ENV_MAP="api_key=API_KEY,limit=MCPBASH_EXAMPLE_LIMIT"',
      'MCPB_USER_CONFIG_ARGS_MAP="folders"',
    ].join('\n'),
    'mcpb.conf',
  );
  const fields = resolveBundleFields({ root, flags: {}, conf, meta, env: {}, git: () => ({}) });
  const images = collectImages(root, join(root, 'server.d'), meta);
  return { root, fields, images };
}

function input(
  root: string,
  fields: BundleFields,
  images: ManifestInput['images'],
  launch = nodeLaunch(Buffer.from('cjs')),
): ManifestInput {
  return {
    fields,
    images,
    inventory,
    launch,
    platforms: ['darwin', 'linux', 'win32'],
    promptsDir: join(root, 'prompts'),
  };
}

t.test('a manifest with every field passes the official MCPB 0.3 schema', async (t) => {
  const { root, fields, images } = richProject(t);
  const warnings: string[] = [];
  const manifest = buildManifest(input(root, fields, images), warnings) as Manifest;
  t.same(schemaIssues(manifest), [], 'the official schema accepts it');
  t.match(manifest, {
    manifest_version: '0.3',
    name: 'rich',
    display_name: 'Rich Server',
    version: '1.0.0-beta.1+build.5',
    long_description: '# Long\n',
    author: { name: 'Ada', email: 'ada@example.com', url: 'https://ada.example.com' },
    repository: { type: 'git', url: 'https://github.com/ada/rich' },
    icon: 'icon.png',
    icons: [
      { src: 'server.d/icon-16.png', size: '16x16' },
      { src: 'https://example.com/i.png', size: '64x64', theme: 'dark' },
    ],
    screenshots: ['https://example.com/shot.png'],
    tools: [{ name: 'greet', description: 'Greets.' }, { name: 'quiet' }],
    tools_generated: true,
    prompts: [{ name: 'review', description: 'Reviews.', arguments: ['topic'], text: 'Review {{topic}}.\n' }],
    keywords: ['a', 'b'],
    license: 'MIT',
    privacy_policies: ['https://p.example.com'],
    compatibility: {
      platforms: ['darwin', 'linux', 'win32'],
      claude_desktop: '>=0.10.0',
      runtimes: { node: '>=20.0.0', python: '>=3.10' },
    },
    localization: { default_locale: 'en-US' },
    _meta: { 'com.example/x': { a: 1 } },
  });
  t.notOk('description' in manifest.tools[1], 'an empty description is left out');
  t.equal(manifest.prompts.length, 1, 'empty and unreadable templates are left out');
  t.match(warnings, [/prompt gone left out of the manifest/]);
  t.same(manifest.user_config.limit, {
    type: 'number',
    title: 'Limit',
    description: 'Max items',
    min: 1,
    max: 100,
    default: 10,
  });
  const config = manifest.server.mcp_config;
  t.same(config.args, ['${__dirname}/server/mcp-bash.cjs', '--', '${user_config.folders}'], 'args map after --');
  t.same(config.env, {
    MCPBASH_PROJECT_ROOT: '${__dirname}/server',
    MCPBASH_TOOL_ALLOWLIST: '*',
    MCPBASH_STATIC_REGISTRY: '1',
    MCPBASH_TOOL_ENV_MODE: 'allowlist',
    MCPBASH_TOOL_ENV_ALLOWLIST: 'API_KEY',
    API_KEY: '${user_config.api_key}',
    MCPBASH_EXAMPLE_LIMIT: '${user_config.limit}',
  });
  t.same(
    config.platform_overrides.win32,
    { command: 'node', args: config.args, env: { EXTRA: '1' } },
    "the project's override on top of ours",
  );
});

t.test("a messages prompt's text is its text blocks as written, one paragraph each", async (t) => {
  const { root, fields, images } = richProject(t);
  const topicArgument = { type: 'object', properties: { topic: {} } };
  const prompts: ProjectInventory['prompts'] = [
    {
      name: 'describe',
      description: 'Describes.',
      arguments: topicArgument,
      role: 'user',
      messages: [
        { role: 'user', content: { type: 'text', text: 'Tell me about {{topic}}.' } },
        { role: 'user', content: { type: 'image', data: 'iVBORw0KGgo=', mimeType: 'image/png' } },
        { role: 'assistant', content: { type: 'text', path: 'review.txt' } },
        { role: 'user', content: { type: 'resource_link', uri: 'mem://{{topic}}', name: 'link' } },
      ],
    },
    {
      name: 'pictures',
      description: 'Only an image.',
      arguments: topicArgument,
      role: 'user',
      messages: [{ role: 'user', content: { type: 'image', path: 'no-such.png' } }],
    },
  ];
  const warnings: string[] = [];
  const manifest = buildManifest(
    { ...input(root, fields, images), inventory: { ...inventory, prompts } },
    warnings,
  ) as Manifest;
  t.same(schemaIssues(manifest), []);
  t.same(manifest.prompts, [
    {
      name: 'describe',
      description: 'Describes.',
      arguments: ['topic'],
      text: 'Tell me about {{topic}}.\n\nReview {{topic}}.\n',
    },
  ]);
  t.same(warnings, [], 'a prompt without text blocks is left out, its files not read');
});

t.test('binary runtime: the launcher for darwin/linux, the .exe for win32, a full override', async (t) => {
  const { root, fields, images } = richProject(t);
  const binaries = t.testdir({
    'mcp-bash-darwin-arm64': fakeExecutable('darwin-arm64'),
    'mcp-bash-linux-x64': fakeExecutable('linux-x64'),
    'mcp-bash-win-x64.exe': fakeExecutable('win-x64'),
  });
  const unpackDir = join(binaries, '.unpack');
  const launch = binaryLaunch({
    platforms: ['darwin', 'linux', 'win32'],
    self: undefined,
    binariesDir: binaries,
    unpackDir,
    launcher: '#!/bin/sh\n',
  });
  t.same(launch.entries.map((entry) => entry.path).sort(), [
    'server/bin/mcp-bash-darwin-arm64',
    'server/bin/mcp-bash-linux-x64',
    'server/bin/mcp-bash-win-x64.exe',
    'server/run-server.sh',
  ]);
  t.match(launch.warnings, [/no mcp-bash-darwin-x64/, /no mcp-bash-linux-arm64/]);
  const manifest = buildManifest(input(root, fields, images, launch), []) as Manifest;
  t.same(schemaIssues(manifest), []);
  t.equal(manifest.server.type, 'binary');
  t.equal(manifest.server.entry_point, 'server/run-server.sh');
  t.equal(manifest.server.mcp_config.command, '${__dirname}/server/run-server.sh');
  t.same(manifest.server.mcp_config.platform_overrides.win32, {
    command: '${__dirname}/server/bin/mcp-bash-win-x64.exe',
    args: ['--', '${user_config.folders}'],
    env: { EXTRA: '1' },
  });
  t.same(manifest.compatibility.runtimes, { python: '>=3.10' }, 'no node runtime for binaries');
  const windowsOnly = binaryLaunch({
    platforms: ['win32'],
    self: undefined,
    binariesDir: binaries,
    unpackDir,
    launcher: '',
  });
  t.equal(windowsOnly.entryPoint, 'server/bin/mcp-bash-win-x64.exe');
  t.same(windowsOnly.overrides, {});
  t.throws(
    () => binaryLaunch({ platforms: ['linux'], self: undefined, binariesDir: t.testdir({}), unpackDir, launcher: '' }),
    {
      message: /--runtime binary: no binary for linux \(mcp-bash-linux-x64 or mcp-bash-linux-arm64\)/,
    },
  );
});

t.test('what MCPB would reject fails the build, naming the setting', async (t) => {
  const { fields } = richProject(t);
  const check = (changes: Partial<BundleFields>, overrides?: unknown) => () =>
    checkManifestFields({ ...fields, ...changes } as BundleFields, overrides);
  t.throws(check({ author: undefined }), {
    message: /no author: MCPB requires author\.name\. Set MCPB_AUTHOR_NAME/,
    exitCode: 1,
  });
  t.throws(check({ version: '1.0' }), { message: /version "1\.0" is not a semantic version/ });
  t.throws(check({ version: 'v1.0.0' }), { message: /not a semantic version/ });
  t.throws(check({ name: 'a b' }), { message: /name "a b" cannot name a file/ });
  t.throws(check({ author: { name: 'A', email: 'nope' } }), {
    message: /author email "nope" is not an email address \(MCPB_AUTHOR_EMAIL\)/,
  });
  t.throws(check({ homepage: 'example.com' }), { message: /homepage \(MCPB_HOMEPAGE\) "example\.com" is not a URL/ });
  t.throws(check({ repository: 'not a url' }), { message: /repository \(MCPB_REPOSITORY\)/ });
  t.throws(check({ privacyPolicies: ['https://ok.example.com', 'bad'] }), {
    message: /privacy policy \(MCPB_PRIVACY_POLICIES\) "bad"/,
  });
  t.throws(check({ meta: { localization: { resources: 'x.json', default_locale: 'en' } } }), {
    message: /localization must be/,
  });
  t.throws(check({ meta: { _meta: { key: 'flat' } } }), { message: /_meta must be an object of objects/ });
  t.throws(check({}, { beos: {} }), { message: /platform_overrides must map darwin, linux, win32/ });
  t.throws(check({}, { linux: { command: 1 } }), { message: /platform_overrides must map/ });
  t.throws(
    check({ author: undefined, version: 'x' }),
    { message: /no author[\s\S]*version "x"/ },
    'every problem at once',
  );
  t.doesNotThrow(check({}));
  t.ok(isSemver('0.0.0') && isSemver('10.20.30-rc.1+b.2') && !isSemver('01.0.0') && !isSemver('1.0.0-'));
  t.ok(isEmail('a.b+c@sub.example.org') && !isEmail('a@b') && !isEmail('a..b@example.com'));
});

t.test('mcp_config env: no allowlist when every variable reaches tools anyway; MCPB_STATIC=false', async (t) => {
  const { fields } = richProject(t);
  const plain = {
    ...fields,
    staticRegistry: false,
    userConfig: { ...fields.userConfig, envMap: [['limit', 'MCP_LIMIT'] as const] },
  };
  t.same(serverEnv(plain as BundleFields), {
    MCPBASH_PROJECT_ROOT: '${__dirname}/server',
    MCPBASH_TOOL_ALLOWLIST: '*',
    MCP_LIMIT: '${user_config.limit}',
  });
});
