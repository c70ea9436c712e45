import { join } from 'node:path';
import t from 'tap';
import { type FieldSources, resolveBundleFields } from '../../../../src/distribution/bundle/bundle-fields.js';
import { repositoryUrlFromRemote } from '../../../../src/distribution/bundle/git-info.js';
import { parseMcpbConf } from '../../../../src/distribution/bundle/mcpb-conf.js';

const GIT = { userName: 'Git User', userEmail: 'git@example.com', repositoryUrl: 'https://git.example.com/r.git' };

function sources(root: string, overrides: Partial<FieldSources> & { confText?: string } = {}): FieldSources {
  return {
    root,
    flags: {},
    conf: parseMcpbConf(overrides.confText ?? '', 'mcpb.conf'),
    meta: {},
    env: {},
    git: () => GIT,
    ...overrides,
  };
}

t.test('name and version: flag > mcpb.conf > VERSION (version only) > server.meta.json > default', async (t) => {
  const dir = t.testdir({ versioned: { VERSION: '3.0.0\n' }, bare: {} });
  const root = join(dir, 'versioned');
  const bare = join(dir, 'bare');
  const meta = { name: 'meta-name', version: '2.0.0' };
  const conf = 'MCPB_NAME="conf-name"\nMCPB_VERSION="4.0.0"\n';
  const all = resolveBundleFields(
    sources(root, { meta, confText: conf, flags: { name: 'flag-name', version: '5.0.0' } }),
  );
  t.same([all.name, all.version], ['flag-name', '5.0.0']);
  t.same(all.sources.version, '--version');
  const noFlag = resolveBundleFields(sources(root, { meta, confText: conf }));
  t.same([noFlag.name, noFlag.version], ['conf-name', '4.0.0']);
  const noConf = resolveBundleFields(sources(root, { meta }));
  t.same([noConf.name, noConf.version], ['meta-name', '3.0.0'], 'VERSION beats server.meta.json');
  t.equal(noConf.sources.version, 'VERSION');
  const metaOnly = resolveBundleFields(sources(bare, { meta }));
  t.equal(metaOnly.version, '2.0.0');
  const nothing = resolveBundleFields(sources(bare));
  t.equal(nothing.version, '0.1.0', 'default version');
  t.match(nothing.name, /^[A-Za-z0-9_-]+$/, 'default name: the directory name, sanitized');
  t.equal(nothing.description, 'MCP server built with mcp-bash', 'default description');
  t.equal(resolveBundleFields(sources(bare, { meta: { name: 'my-cool_server' } })).displayName, 'My Cool Server');
  t.equal(resolveBundleFields(sources(bare, { meta: { name: 'x', title: 'Shown' } })).displayName, 'Shown');
});

t.test('author: mcpb.conf > server.meta.json (string or object) > git > none', async (t) => {
  const root = t.testdir({});
  const conf =
    'MCPB_AUTHOR_NAME="Conf Name"\nMCPB_AUTHOR_EMAIL="conf@example.com"\nMCPB_AUTHOR_URL="https://conf.example.com"\n';
  t.same(resolveBundleFields(sources(root, { confText: conf, meta: { author: 'Meta' } })).author, {
    name: 'Conf Name',
    email: 'conf@example.com',
    url: 'https://conf.example.com',
  });
  t.same(
    resolveBundleFields(sources(root, { meta: { author: 'Ada <ada@example.com> (https://ada.example.com)' } })).author,
    {
      name: 'Ada',
      email: 'ada@example.com',
      url: 'https://ada.example.com',
    },
    'npm-style author string',
  );
  t.same(
    resolveBundleFields(sources(root, { meta: { author: { name: 'Obj', url: 'https://o.example.com' } } })).author,
    {
      name: 'Obj',
      email: 'git@example.com',
      url: 'https://o.example.com',
    },
    'object author; a missing email falls back to git',
  );
  t.same(
    resolveBundleFields(sources(root)).author,
    { name: 'Git User', email: 'git@example.com' },
    'git user.name/email',
  );
  t.equal(resolveBundleFields(sources(root, { git: () => ({}) })).author, undefined, 'no author anywhere');
  let gitCalls = 0;
  resolveBundleFields(
    sources(root, {
      confText: conf,
      meta: { repository: 'https://r.example.com' },
      git: () => {
        gitCalls += 1;
        return GIT;
      },
    }),
  );
  t.equal(gitCalls, 0, 'git is not asked when mcpb.conf and server.meta.json answer');
});

t.test('repository: mcpb.conf > server.meta.json > git remote (converted to https)', async (t) => {
  const root = t.testdir({});
  t.equal(
    resolveBundleFields(sources(root, { confText: 'MCPB_REPOSITORY="https://c.example.com/r"' })).repository,
    'https://c.example.com/r',
  );
  t.equal(
    resolveBundleFields(sources(root, { meta: { repository: { type: 'git', url: 'git@github.com:o/r.git' } } }))
      .repository,
    'https://github.com/o/r.git',
  );
  t.equal(resolveBundleFields(sources(root)).repository, GIT.repositoryUrl);
  t.equal(repositoryUrlFromRemote('git@github.com:owner/repo.git'), 'https://github.com/owner/repo.git');
  t.equal(repositoryUrlFromRemote('ssh://git@host.example.com/o/r.git'), 'https://host.example.com/o/r.git');
  t.equal(
    repositoryUrlFromRemote('https://user:secret@host.example.com/o/r'),
    'https://host.example.com/o/r',
    'credentials dropped',
  );
  t.equal(repositoryUrlFromRemote('/srv/git/local.git'), undefined, 'a local path is no URL');
});

t.test('registry fields, compatibility, MCPB_STATIC and MCPB_INCLUDE', async (t) => {
  const root = t.testdir({ docs: { 'LONG.md': '# Long\n' } });
  const conf = [
    'MCPB_DESCRIPTION="conf description"',
    'MCPB_LICENSE="Apache-2.0"',
    'MCPB_KEYWORDS="a  b c"',
    'MCPB_HOMEPAGE="https://h.example.com"',
    'MCPB_DOCUMENTATION="https://d.example.com"',
    'MCPB_SUPPORT="https://s.example.com"',
    'MCPB_PRIVACY_POLICIES="https://p1.example.com https://p2.example.com"',
    'MCPB_COMPAT_CLAUDE_DESKTOP=">=0.10.0"',
    'MCPB_RUNTIME_NODE=">=22"',
    'MCPB_RUNTIME_PYTHON=">=3.11"',
    'MCPB_LONG_DESCRIPTION_FILE="docs/LONG.md"',
    'MCPB_INCLUDE="config data"',
    'MCPB_STATIC=off',
  ].join('\n');
  const fields = resolveBundleFields(
    sources(root, { confText: conf, meta: { description: 'meta', license: 'MIT', keywords: ['m'] } }),
  );
  t.match(fields, {
    description: 'conf description',
    license: 'Apache-2.0',
    keywords: ['a', 'b', 'c'],
    homepage: 'https://h.example.com',
    documentation: 'https://d.example.com',
    support: 'https://s.example.com',
    privacyPolicies: ['https://p1.example.com', 'https://p2.example.com'],
    claudeDesktop: '>=0.10.0',
    runtimeNode: '>=22',
    runtimePython: '>=3.11',
    longDescription: '# Long\n',
    include: ['config', 'data'],
    staticRegistry: false,
  });
  const fromMeta = resolveBundleFields(
    sources(root, {
      meta: {
        license: 'MIT',
        keywords: 'x y',
        homepage: 'https://mh.example.com',
        privacy_policies: ['https://mp.example.com'],
        long_description_file: 'docs/LONG.md',
      },
    }),
  );
  t.match(fromMeta, {
    license: 'MIT',
    keywords: ['x', 'y'],
    homepage: 'https://mh.example.com',
    privacyPolicies: ['https://mp.example.com'],
    longDescription: '# Long\n',
    staticRegistry: true,
  });
  for (const value of ['false', '0', 'no', 'off', 'FALSE'])
    t.equal(
      resolveBundleFields(sources(root, { confText: `MCPB_STATIC=${value}` })).staticRegistry,
      false,
      `MCPB_STATIC=${value}`,
    );
  t.equal(resolveBundleFields(sources(root, { confText: 'MCPB_STATIC=true' })).staticRegistry, true);
  t.throws(() => resolveBundleFields(sources(root, { confText: 'MCPB_LONG_DESCRIPTION_FILE="missing.md"' })), {
    message: /long description file missing\.md \(mcpb\.conf MCPB_LONG_DESCRIPTION_FILE\) cannot be read: ENOENT/,
  });
});

t.test('user_config: MCPB_USER_CONFIG_FILE > server.meta.json, with the maps', async (t) => {
  const entry = { type: 'string', title: 'Key', description: 'An API key', sensitive: true };
  const root = t.testdir({ 'uc.json': JSON.stringify({ api_key: entry }), 'bad.json': '{' });
  const fromFile = resolveBundleFields(
    sources(root, {
      confText:
        'MCPB_USER_CONFIG_FILE="uc.json"\nMCPB_USER_CONFIG_ENV_MAP="api_key=API_KEY"\n' +
        'MCPB_USER_CONFIG_ARGS_MAP="api_key"',
      meta: { user_config: { other: entry } },
    }),
  );
  t.same(fromFile.userConfig.userConfig, { api_key: entry });
  t.same(fromFile.userConfig.envMap, [['api_key', 'API_KEY']]);
  t.same(fromFile.userConfig.argsKeys, ['api_key']);
  const fromMeta = resolveBundleFields(
    sources(root, {
      meta: { user_config: { other: entry }, user_config_env_map: { other: 'OTHER' }, user_config_args_map: ['other'] },
    }),
  );
  t.same(fromMeta.userConfig.envMap, [['other', 'OTHER']]);
  t.same(fromMeta.userConfig.argsKeys, ['other']);
  t.throws(() => resolveBundleFields(sources(root, { confText: 'MCPB_USER_CONFIG_FILE="bad.json"' })), {
    message: /MCPB_USER_CONFIG_FILE bad\.json cannot be read as JSON/,
  });
});
