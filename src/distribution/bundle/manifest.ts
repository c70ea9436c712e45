import { isObject } from '../../json/objects.js';
import { readPromptTemplate } from '../../project/prompts/prompt-template.js';
import type { JsonObject } from '../../spec/types.js';
import type { BundleFields } from './bundle-fields.js';
import type { BundleImages } from './bundle-images.js';
import { checkManifestFields } from './manifest-checks.js';
import type { ProjectInventory } from './project-inventory.js';
import type { Platform } from './runtime-sources.js';
import { type LaunchCommand, NODE_RANGE, type ServerLaunch } from './server-launch.js';

/** The MCPB manifest version 1.x wrote; `mcpb validate` accepts it. */
const MANIFEST_VERSION = '0.3';
const TEMPLATE_MAX_BYTES = 1024 * 1024;

/** Everything the manifest is made of. */
export interface ManifestInput {
  readonly fields: BundleFields;
  readonly images: BundleImages;
  readonly inventory: ProjectInventory;
  readonly launch: ServerLaunch;
  readonly platforms: readonly Platform[];
  readonly promptsDir: string;
}

/** The prefix tools see the project's own variables under: they pass the minimal env mode. */
const PASSED_TO_TOOLS = /^(MCP_|MCPBASH_)/;

/**
 * mcp_config.env: the project root inside the bundle, every tool allowed (installing the
 * bundle is the user's consent), static registry mode, and the user_config variables; those
 * not named MCP_... or MCPBASH_... are put on the tool env allowlist, or tools would not see them.
 */
export function serverEnv(fields: BundleFields): Record<string, string> {
  const env: Record<string, string> = {
    MCPBASH_PROJECT_ROOT: '${__dirname}/server',
    MCPBASH_TOOL_ALLOWLIST: '*',
  };
  if (fields.staticRegistry) env.MCPBASH_STATIC_REGISTRY = '1';
  const mapped = fields.userConfig.envMap;
  const forTools = mapped.map(([, name]) => name).filter((name) => !PASSED_TO_TOOLS.test(name));
  if (forTools.length > 0) {
    env.MCPBASH_TOOL_ENV_MODE = 'allowlist';
    env.MCPBASH_TOOL_ENV_ALLOWLIST = forTools.join(',');
  }
  for (const [key, name] of mapped) env[name] = `\${user_config.${key}}`;
  return env;
}

/** user_config values given as arguments; `--` first, so mcp-bash starts its server rather than reading a command. */
function userArgs(fields: BundleFields): string[] {
  const keys = fields.userConfig.argsKeys;
  return keys.length === 0 ? [] : ['--', ...keys.map((key) => `\${user_config.${key}}`)];
}

function userOverrides(meta: JsonObject): Record<string, JsonObject> {
  const server = isObject(meta.server) && isObject(meta.server.mcp_config) ? meta.server.mcp_config : {};
  const overrides = meta.platform_overrides ?? server.platform_overrides;
  return isObject(overrides) ? (overrides as Record<string, JsonObject>) : {};
}

function serverSection(input: ManifestInput): JsonObject {
  const { fields, launch } = input;
  const env = serverEnv(fields);
  const args = userArgs(fields);
  const config = (command: LaunchCommand): JsonObject => ({
    command: command.command,
    args: [...command.args, ...args],
    env,
  });
  // An override replaces command, args and env whole, so ours carry all three.
  const overrides: Record<string, JsonObject> = {};
  for (const [platform, command] of Object.entries(launch.overrides)) overrides[platform] = config(command);
  for (const [platform, override] of Object.entries(userOverrides(fields.meta)))
    overrides[platform] = { ...(overrides[platform] ?? config(launch.main)), ...override };
  return {
    type: launch.type,
    entry_point: launch.entryPoint,
    mcp_config: {
      ...config(launch.main),
      ...(Object.keys(overrides).length > 0 ? { platform_overrides: overrides } : {}),
    },
  };
}

function promptEntries(input: ManifestInput, warnings: string[]): JsonObject[] {
  const entries: JsonObject[] = [];
  for (const prompt of input.inventory.prompts) {
    let text: string;
    try {
      text = readPromptTemplate(input.promptsDir, prompt, TEMPLATE_MAX_BYTES);
    } catch (error) {
      warnings.push(`prompt ${prompt.name} left out of the manifest: ${(error as Error).message}`);
      continue;
    }
    if (text.trim() === '') continue;
    const properties = isObject(prompt.arguments.properties) ? Object.keys(prompt.arguments.properties) : [];
    entries.push({
      name: prompt.name,
      ...(prompt.description ? { description: prompt.description } : {}),
      ...(properties.length > 0 ? { arguments: properties } : {}),
      text,
    });
  }
  return entries;
}

function compatibility(input: ManifestInput): JsonObject {
  const { fields, launch } = input;
  const runtimes: JsonObject = {};
  const node = fields.runtimeNode ?? (launch.type === 'node' ? NODE_RANGE : undefined);
  if (node) runtimes.node = node;
  if (fields.runtimePython) runtimes.python = fields.runtimePython;
  return {
    platforms: [...input.platforms],
    ...(fields.claudeDesktop ? { claude_desktop: fields.claudeDesktop } : {}),
    ...(Object.keys(runtimes).length > 0 ? { runtimes } : {}),
  };
}

/** Keeps the keys whose value is set, in order. */
function defined(entries: Array<[string, unknown]>): JsonObject {
  return Object.fromEntries(entries.filter(([, value]) => value !== undefined));
}

/**
 * The MCPB 0.3 manifest: only keys the schema knows (it is strict), checked first
 * (author, semantic version, URLs, e-mail). `warnings` receives what was left out.
 */
export function buildManifest(input: ManifestInput, warnings: string[]): JsonObject {
  const { fields, images, inventory } = input;
  checkManifestFields(fields, userOverrides(fields.meta));
  const tools = inventory.tools.map((tool) =>
    defined([
      ['name', tool.name],
      ['description', tool.description || undefined],
    ]),
  );
  const prompts = promptEntries(input, warnings);
  const userConfig = fields.userConfig.userConfig;
  return defined([
    ['manifest_version', MANIFEST_VERSION],
    ['name', fields.name],
    ['display_name', fields.displayName],
    ['version', fields.version],
    ['description', fields.description],
    ['long_description', fields.longDescription],
    ['author', fields.author],
    ['repository', fields.repository ? { type: 'git', url: fields.repository } : undefined],
    ['homepage', fields.homepage],
    ['documentation', fields.documentation],
    ['support', fields.support],
    ['icon', images.icon],
    ['icons', images.icons],
    ['screenshots', images.screenshots],
    ['server', serverSection(input)],
    ['tools', tools.length > 0 ? tools : undefined],
    ['tools_generated', tools.length > 0 ? true : undefined],
    ['prompts', prompts.length > 0 ? prompts : undefined],
    ['prompts_generated', prompts.length > 0 ? true : undefined],
    ['keywords', fields.keywords],
    ['license', fields.license],
    ['privacy_policies', fields.privacyPolicies],
    ['compatibility', compatibility(input)],
    ['user_config', userConfig && Object.keys(userConfig).length > 0 ? userConfig : undefined],
    ['localization', fields.meta.localization],
    ['_meta', fields.meta._meta],
  ]);
}
