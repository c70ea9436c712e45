import { existsSync, readFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import { titleFromName } from '../content/display-names.js';
import { servedServerMeta } from '../schemas/meta-files.js';
import type { Icon, Implementation } from '../spec/types.js';
import { screenMetadata } from '../validation/metadata-check.js';
import type { ProjectLayout } from './project-layout.js';

/** Who the server says it is (serverInfo) and what it tells the model (instructions). */
export interface ServerIdentity {
  readonly info: Implementation;
  readonly instructions: string | undefined;
  /** Problems with server.meta.json worth a warning (the defaults were used instead). */
  readonly warnings: readonly string[];
}

function readText(path: string): string | undefined {
  try {
    return readFileSync(path, 'utf8');
  } catch {
    return undefined;
  }
}

/** The project's version: a VERSION file, else package.json's version, else 0.0.0. */
function projectVersion(root: string): string {
  const fromFile = readText(join(root, 'VERSION'))?.trim();
  if (fromFile) return fromFile;
  try {
    const pkg = JSON.parse(readText(join(root, 'package.json')) ?? '') as { version?: unknown };
    if (typeof pkg.version === 'string' && pkg.version !== '') return pkg.version;
  } catch {
    // no usable package.json
  }
  return '0.0.0';
}

function stringField(meta: Record<string, unknown>, key: string): string | undefined {
  const value = meta[key];
  return typeof value === 'string' && value.trim() !== '' ? value : undefined;
}

/**
 * serverInfo from `server.d/server.meta.json` (name, title, version, description, websiteUrl,
 * icons) with 1.x's defaults, and instructions from `server.d/server.instructions.md`.
 */
export function loadServerIdentity(layout: ProjectLayout, options: { gettingStarted?: boolean } = {}): ServerIdentity {
  const warnings: string[] = [];
  let meta: Record<string, unknown> = {};
  const metaPath = join(layout.serverDir, 'server.meta.json');
  const text = readText(metaPath);
  if (text !== undefined) {
    try {
      const parsed: unknown = JSON.parse(text);
      if (typeof parsed === 'object' && parsed !== null && !Array.isArray(parsed)) {
        const screen = screenMetadata(servedServerMeta, parsed as Record<string, unknown>);
        warnings.push(...screen.warnings.map((warning) => `${metaPath}: ${warning}`));
        meta = screen.value ?? {};
      } else warnings.push(`${metaPath} is not a JSON object; using defaults`);
    } catch (error) {
      warnings.push(`${metaPath} is not valid JSON (${(error as Error).message}); using defaults`);
    }
  }
  const name = stringField(meta, 'name') ?? (options.gettingStarted ? 'mcp-bash' : basename(layout.root));
  const info: Implementation = {
    name,
    version: stringField(meta, 'version') ?? projectVersion(layout.root),
    title: stringField(meta, 'title') ?? titleFromName(name),
  };
  const description = stringField(meta, 'description');
  if (description) info.description = description;
  const websiteUrl = stringField(meta, 'websiteUrl');
  if (websiteUrl) info.websiteUrl = websiteUrl;
  if (Array.isArray(meta.icons)) info.icons = meta.icons as Icon[];
  const instructionsPath = join(layout.serverDir, 'server.instructions.md');
  const instructions = existsSync(instructionsPath) ? readText(instructionsPath) : undefined;
  return { info, instructions: instructions && instructions.trim() !== '' ? instructions : undefined, warnings };
}

/** serverInfo as the MCPBASH_SERVER_* variables tools receive. */
export function identityEnvironment(identity: ServerIdentity): Record<string, string> {
  const { info } = identity;
  const env: Record<string, string> = {
    MCPBASH_SERVER_NAME: info.name,
    MCPBASH_SERVER_VERSION: info.version,
    MCPBASH_SERVER_TITLE: info.title ?? info.name,
  };
  if (info.description) env.MCPBASH_SERVER_DESCRIPTION = info.description;
  if (info.websiteUrl) env.MCPBASH_SERVER_WEBSITE_URL = info.websiteUrl;
  if (info.icons) env.MCPBASH_SERVER_ICONS = JSON.stringify(info.icons);
  if (identity.instructions) env.MCPBASH_SERVER_INSTRUCTIONS = identity.instructions;
  return env;
}
