import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { MANIFEST_SCHEMAS, unpackExtension, validateManifest } from '@anthropic-ai/mcpb';
import { repoRoot } from './paths.js';

// Manifests are read as loose JSON: the tests look into them with t.match and friends.
export type Manifest = Record<string, any>;

/** What the official validator said: its verdict, its printed lines, and the schema issues. */
export interface McpbVerdict {
  readonly valid: boolean;
  readonly output: string;
  readonly issues: string[];
}

/**
 * `mcpb validate <dir>` of @anthropic-ai/mcpb, called as a library (its CLI does exactly
 * this): the 0.3 schema (strict) and the icon checks. Its console output is captured.
 */
export function mcpbValidate(dir: string): McpbVerdict {
  const lines: string[] = [];
  const original = { log: console.log, error: console.error };
  console.log = (...args: unknown[]) => lines.push(args.join(' '));
  console.error = console.log;
  let valid: boolean;
  try {
    valid = validateManifest(dir);
  } finally {
    console.log = original.log;
    console.error = original.error;
  }
  const manifest = JSON.parse(readFileSync(join(dir, 'manifest.json'), 'utf8'));
  const parsed = MANIFEST_SCHEMAS['0.3'].safeParse(manifest);
  const issues = parsed.success ? [] : parsed.error.issues.map((issue) => `${issue.path.join('.')}: ${issue.message}`);
  return { valid, output: lines.join('\n'), issues };
}

/** The official schema's verdict on a manifest object (no files needed). */
export function schemaIssues(manifest: unknown): string[] {
  const parsed = MANIFEST_SCHEMAS['0.3'].safeParse(manifest);
  return parsed.success ? [] : parsed.error.issues.map((issue) => `${issue.path.join('.')}: ${issue.message}`);
}

/** `mcpb unpack <file> <dir>` of @anthropic-ai/mcpb (it restores unix modes). */
export async function mcpbUnpack(file: string, dir: string): Promise<Manifest> {
  const ok = await unpackExtension({ mcpbPath: file, outputDir: dir, silent: true });
  if (!ok) throw new Error(`mcpb unpack ${file} failed`);
  return JSON.parse(readFileSync(join(dir, 'manifest.json'), 'utf8')) as Manifest;
}

/** A command line as MCPB clients build it from mcp_config. */
export interface Launch {
  readonly command: string;
  readonly args: string[];
  readonly env: Record<string, string>;
}

/**
 * mcp_config (with the platform override for `platform`) after the substitutions a client
 * makes: `${__dirname}` = the unpacked bundle, `${user_config.KEY}` = the user's value or
 * the entry's default (empty when neither), `${HOME}` and `${/}`.
 */
export function launchFromManifest(
  manifest: Manifest,
  dir: string,
  userValues: Record<string, string> = {},
  platform: NodeJS.Platform = process.platform,
): Launch {
  const config = manifest.server.mcp_config;
  const override = config.platform_overrides?.[platform] ?? {};
  const userConfig: Record<string, { default?: unknown }> = manifest.user_config ?? {};
  const substitute = (text: string) =>
    text
      .replaceAll('${__dirname}', dir)
      .replaceAll('${/}', '/')
      .replaceAll('${HOME}', process.env.HOME ?? '')
      .replace(/\$\{user_config\.([^}]+)\}/g, (_match, key: string) => {
        const value = userValues[key] ?? userConfig[key]?.default;
        return value === undefined ? '' : String(value);
      });
  const env: Record<string, string> = {};
  for (const [key, value] of Object.entries((override.env ?? config.env ?? {}) as Record<string, string>))
    env[key] = substitute(value);
  return {
    command: substitute(override.command ?? config.command),
    args: ((override.args ?? config.args ?? []) as string[]).map(substitute),
    env,
  };
}

/** The pinned Node 22 binary the build fetched (.cache/node/v<V>/linux-x64/node), when present. */
export function node22Path(): string | undefined {
  const pins = JSON.parse(readFileSync(join(repoRoot, 'release', 'node-binaries.json'), 'utf8')) as { version: string };
  const target = `${process.platform === 'win32' ? 'win' : process.platform}-${process.arch}`;
  const path = join(
    repoRoot,
    '.cache',
    'node',
    `v${pins.version}`,
    target,
    process.platform === 'win32' ? 'node.exe' : 'node',
  );
  return existsSync(path) ? path : undefined;
}
