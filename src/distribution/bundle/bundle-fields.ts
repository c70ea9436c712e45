import { readFileSync } from 'node:fs';
import { basename, isAbsolute, join } from 'node:path';
import { CliError, ExitCode } from '../../cli/cli-error.js';
import { sanitizeName } from '../../cli/names.js';
import type { Env } from '../../config/env-values.js';
import { booleanWord } from '../../config/setting-kinds.js';
import { titleFromName } from '../../content/display-names.js';
import { isObject } from '../../json/objects.js';
import type { JsonObject } from '../../spec/types.js';
import { type GitInfo, readGitInfo, repositoryUrlFromRemote } from './git-info.js';
import type { McpbConf, McpbConfKey } from './mcpb-conf.js';
import { planUserConfig, type UserConfigPlan } from './user-config.js';

/** What the command line says about the bundle. */
export interface BundleFlags {
  readonly name?: string | undefined;
  readonly version?: string | undefined;
}

/** Everything the resolver reads. */
export interface FieldSources {
  readonly root: string;
  readonly flags: BundleFlags;
  readonly conf: McpbConf;
  /** server.d/server.meta.json, parsed. */
  readonly meta: JsonObject;
  readonly env: Env;
  /** Injected for tests; default runs git in the project. */
  readonly git?: () => GitInfo;
}

interface Author {
  name: string;
  email?: string;
  url?: string;
}

/** A value (or a function computing it, for costly sources such as git) and where it came from. */
type Candidate<T> = readonly [value: T | undefined | (() => T | undefined), source: string];

function text(value: unknown): string | undefined {
  return typeof value === 'string' && value.trim() !== '' ? value.trim() : undefined;
}

function words(value: unknown): string[] | undefined {
  if (Array.isArray(value)) return value.map(String).filter((item) => item !== '');
  const single = text(value);
  return single === undefined ? undefined : single.split(/\s+/);
}

class Resolver {
  readonly sources: Record<string, string> = {};
  private gitInfo: GitInfo | undefined;

  constructor(private readonly input: FieldSources) {}

  conf(key: McpbConfKey): Candidate<string> {
    return [text(this.input.conf.values.get(key)), `mcpb.conf ${key}`];
  }

  meta(key: string): Candidate<unknown> {
    return [this.input.meta[key], `server.meta.json ${key}`];
  }

  git(): GitInfo {
    this.gitInfo ??= (this.input.git ?? (() => readGitInfo(this.input.root, this.input.env)))();
    return this.gitInfo;
  }

  /** The first candidate with a value; its source is recorded under `field`. */
  pick<T>(field: string, ...candidates: Array<Candidate<T>>): T | undefined {
    for (const [candidate, source] of candidates) {
      const value = typeof candidate === 'function' ? (candidate as () => T | undefined)() : candidate;
      if (value === undefined) continue;
      this.sources[field] = source;
      return value;
    }
    return undefined;
  }

  string(field: string, confKey: McpbConfKey, metaKey: string): string | undefined {
    return this.pick(field, this.conf(confKey), [text(this.input.meta[metaKey]), `server.meta.json ${metaKey}`]);
  }
}

function readVersionFile(root: string): string | undefined {
  try {
    return text(readFileSync(join(root, 'VERSION'), 'utf8'));
  } catch {
    return undefined;
  }
}

function metaAuthor(value: unknown): Partial<Author> {
  if (typeof value === 'string') {
    // npm's "Name <email> (url)" form.
    const match = /^([^<(]*?)\s*(?:<([^>]*)>)?\s*(?:\(([^)]*)\))?$/.exec(value.trim());
    return { name: text(match?.[1] ?? value), email: text(match?.[2]), url: text(match?.[3]) } as Partial<Author>;
  }
  if (!isObject(value)) return {};
  return { name: text(value.name), email: text(value.email), url: text(value.url) } as Partial<Author>;
}

function resolveAuthor(r: Resolver, meta: JsonObject): Author | undefined {
  const fromMeta = metaAuthor(meta.author);
  const name = r.pick(
    'author.name',
    r.conf('MCPB_AUTHOR_NAME'),
    [fromMeta.name, 'server.meta.json author'],
    [() => r.git().userName, 'git user.name'],
  );
  if (name === undefined) return undefined;
  const email = r.pick(
    'author.email',
    r.conf('MCPB_AUTHOR_EMAIL'),
    [fromMeta.email, 'server.meta.json author'],
    [() => r.git().userEmail, 'git user.email'],
  );
  const url = r.pick('author.url', r.conf('MCPB_AUTHOR_URL'), [fromMeta.url, 'server.meta.json author']);
  return { name, ...(email ? { email } : {}), ...(url ? { url } : {}) };
}

function resolveRepository(r: Resolver, meta: JsonObject): string | undefined {
  const raw = isObject(meta.repository) ? text(meta.repository.url) : text(meta.repository);
  const fromMeta = raw === undefined ? undefined : (repositoryUrlFromRemote(raw) ?? raw);
  return r.pick(
    'repository',
    r.conf('MCPB_REPOSITORY'),
    [fromMeta, 'server.meta.json repository'],
    [() => r.git().repositoryUrl, 'git remote.origin.url'],
  );
}

function readLongDescription(r: Resolver, root: string, meta: JsonObject): string | undefined {
  const file = r.pick('long_description', r.conf('MCPB_LONG_DESCRIPTION_FILE'), [
    text(meta.long_description_file),
    'server.meta.json long_description_file',
  ]);
  if (file === undefined) return undefined;
  const path = isAbsolute(file) ? file : join(root, file);
  try {
    return readFileSync(path, 'utf8');
  } catch (error) {
    throw new CliError(
      `the long description file ${file} (${r.sources.long_description}) cannot be read: ` +
        `${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`,
      ExitCode.Failure,
    );
  }
}

function resolveUserConfig(r: Resolver, root: string, meta: JsonObject): UserConfigPlan {
  const file = text(r.conf('MCPB_USER_CONFIG_FILE')[0]);
  let userConfig: unknown = meta.user_config;
  let source = 'server.meta.json user_config';
  if (file !== undefined) {
    source = `mcpb.conf MCPB_USER_CONFIG_FILE ${file}`;
    try {
      userConfig = JSON.parse(readFileSync(isAbsolute(file) ? file : join(root, file), 'utf8'));
    } catch (error) {
      throw new CliError(`${source} cannot be read as JSON: ${(error as Error).message}`, ExitCode.Failure);
    }
  }
  if (userConfig !== undefined) r.sources.user_config = source;
  return planUserConfig({
    userConfig,
    source,
    envMap: r.pick('user_config env map', r.conf('MCPB_USER_CONFIG_ENV_MAP'), r.meta('user_config_env_map')),
    argsMap: r.pick('user_config args map', r.conf('MCPB_USER_CONFIG_ARGS_MAP'), r.meta('user_config_args_map')),
  });
}

function resolveIdentity(r: Resolver, input: FieldSources): { name: string; version: string } {
  const { meta, root, flags } = input;
  const name =
    r.pick('name', [text(flags.name), '--name'], r.conf('MCPB_NAME'), [text(meta.name), 'server.meta.json name']) ??
    sanitizeName(basename(root));
  const version =
    r.pick(
      'version',
      [text(flags.version), '--version'],
      r.conf('MCPB_VERSION'),
      [readVersionFile(root), 'VERSION'],
      [text(meta.version), 'server.meta.json version'],
    ) ?? '0.1.0';
  return { name, version };
}

/** The registry listing fields: license, keywords, links, privacy policies. */
function resolveListing(r: Resolver, meta: JsonObject) {
  return {
    license: r.string('license', 'MCPB_LICENSE', 'license'),
    keywords: r.pick(
      'keywords',
      [words(r.conf('MCPB_KEYWORDS')[0]), 'mcpb.conf MCPB_KEYWORDS'],
      [words(meta.keywords), 'server.meta.json keywords'],
    ),
    homepage: r.string('homepage', 'MCPB_HOMEPAGE', 'homepage'),
    documentation: r.string('documentation', 'MCPB_DOCUMENTATION', 'documentation'),
    support: r.string('support', 'MCPB_SUPPORT', 'support'),
    privacyPolicies: r.pick(
      'privacy_policies',
      [words(r.conf('MCPB_PRIVACY_POLICIES')[0]), 'mcpb.conf MCPB_PRIVACY_POLICIES'],
      [words(meta.privacy_policies), 'server.meta.json privacy_policies'],
    ),
  };
}

/**
 * Resolves every manifest field in 1.x's order: command-line flag > mcpb.conf > VERSION
 * (version only) > server.d/server.meta.json > git (author, repository) > defaults.
 */
export function resolveBundleFields(input: FieldSources) {
  const r = new Resolver(input);
  const { meta, root } = input;
  const { name, version } = resolveIdentity(r, input);
  return {
    name,
    version,
    displayName: r.pick('display_name', [text(meta.title), 'server.meta.json title']) ?? titleFromName(name),
    description: r.string('description', 'MCPB_DESCRIPTION', 'description') ?? 'MCP server built with mcp-bash',
    longDescription: readLongDescription(r, root, meta),
    author: resolveAuthor(r, meta),
    repository: resolveRepository(r, meta),
    ...resolveListing(r, meta),
    claudeDesktop: r.pick('claude_desktop', r.conf('MCPB_COMPAT_CLAUDE_DESKTOP')),
    runtimeNode: r.pick('runtimes.node', r.conf('MCPB_RUNTIME_NODE')),
    runtimePython: r.pick('runtimes.python', r.conf('MCPB_RUNTIME_PYTHON')),
    userConfig: resolveUserConfig(r, root, meta),
    /** MCPB_INCLUDE entries, unchecked. */
    include: words(input.conf.values.get('MCPB_INCLUDE')) ?? [],
    staticRegistry: booleanWord(input.conf.values.get('MCPB_STATIC')) ?? true,
    meta,
    /** Where each field came from (`--verbose`). */
    sources: r.sources as Readonly<Record<string, string>>,
  };
}

/** The bundle's metadata, each field taken from the first source that sets it. */
export type BundleFields = ReturnType<typeof resolveBundleFields>;
