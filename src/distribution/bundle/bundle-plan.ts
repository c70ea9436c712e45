import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { FrameworkHome } from '../../assets/framework-home.js';
import { CliError, ExitCode } from '../../cli/cli-error.js';
import { withStateDir } from '../../cli/cli-project.js';
import { readTemplate, scaffoldServerDescription } from '../../cli/scaffold/template-files.js';
import { loadConfig } from '../../config/config.js';
import type { Env } from '../../config/env-values.js';
import { isObject } from '../../json/objects.js';
import { projectLayout } from '../../project/project-layout.js';
import type { JsonObject } from '../../spec/types.js';
import { type BundleFlags, resolveBundleFields } from './bundle-fields.js';
import { collectImages } from './bundle-images.js';
import { buildManifest } from './manifest.js';
import { readMcpbConf } from './mcpb-conf.js';
import { collectProjectFiles, type LeftOut } from './project-files.js';
import { scanProject } from './project-inventory.js';
import { type Platform, selfNativeBinary, serverCjs } from './runtime-sources.js';
import { binaryLaunch, nodeLaunch, type RuntimeKind, type ServerLaunch } from './server-launch.js';
import type { ArchiveEntry } from './zip-writer.js';

/** What `bundle` was asked to do. */
export interface BundleRequest {
  readonly root: string;
  readonly flags: BundleFlags;
  readonly platforms: readonly Platform[];
  readonly runtime: RuntimeKind;
  readonly binariesDir: string | undefined;
  /** Where the bundle will be written: the file is never bundled into itself. */
  readonly outputDir: string;
  /** Scratch space for binaries read out of release archives; the caller removes it. */
  readonly workDir: string;
  readonly env: Env;
  readonly home: FrameworkHome;
  readonly embeddedServerCjs: (() => Buffer | undefined) | undefined;
  /** The time of every archive entry and of the static registry (seconds since the epoch). */
  readonly time: number;
}

/** server.d/server.meta.json as an object; a bundle cannot be made without one (1.x's rule). */
function readServerMeta(root: string): JsonObject {
  const path = join(root, 'server.d', 'server.meta.json');
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch {
    throw new CliError(
      `${path} is missing: a bundle needs the server's metadata`,
      ExitCode.Failure,
      "Create it with 'mcp-bash init'.",
    );
  }
  try {
    const meta: unknown = JSON.parse(text);
    if (isObject(meta)) return meta;
  } catch (error) {
    throw new CliError(`${path} is not valid JSON: ${(error as Error).message}`, ExitCode.Failure);
  }
  throw new CliError(`${path} must hold a JSON object`, ExitCode.Failure);
}

function launchFor(request: BundleRequest): ServerLaunch {
  if (request.runtime === 'node') return nodeLaunch(serverCjs(request.embeddedServerCjs));
  return binaryLaunch({
    platforms: request.platforms,
    self: selfNativeBinary(),
    binariesDir: request.binariesDir,
    unpackDir: request.workDir,
    launcher: readTemplate(request.home, 'runtime', 'bundle-launcher.sh'),
  });
}

function leftOutNote(leftOut: readonly LeftOut[]): string[] {
  if (leftOut.length === 0) return [];
  const shown = leftOut.slice(0, 3).map((item) => item.path);
  return [
    `left out ${leftOut.length} project ${leftOut.length === 1 ? 'file' : 'files'} (${shown.join(', ')}` +
      `${leftOut.length > 3 ? ', ...' : ''}): .env files, keys, logs and bundles never ship, nor what .mcpbignore ` +
      "names; 'bundle --verbose' says why each",
  ];
}

/**
 * Resolves, scans and checks everything a bundle is made of, without writing anything:
 * `--validate` stops here. Throws a CliError (exit 1) for anything that would make an
 * invalid bundle.
 */
export async function planBundle(request: BundleRequest) {
  const { root } = request;
  const meta = readServerMeta(root);
  const conf = readMcpbConf(root);
  const fields = resolveBundleFields({ root, flags: request.flags, conf, meta, env: request.env });
  const fileName = `${fields.name}-${fields.version}.mcpb`;
  const files = collectProjectFiles(root, fields.include, [join(request.outputDir, fileName)]);
  const inventory = await withStateDir(loadConfig(request.env), false, (scratchDir) =>
    scanProject({
      root,
      home: request.home,
      env: request.env,
      scratchDir,
      staticRegistry: fields.staticRegistry,
      generatedAt: new Date(request.time * 1000),
    }),
  );
  const images = collectImages(root, join(root, 'server.d'), meta);
  const launch = launchFor(request);
  const warnings = [...conf.warnings, ...fields.userConfig.warnings, ...files.warnings, ...inventory.warnings];
  warnings.push(...images.warnings, ...launch.warnings);
  if (typeof meta.description === 'string' && meta.description === scaffoldServerDescription(request.home))
    warnings.push(
      "server.d/server.meta.json's description is still the placeholder of 'mcp-bash new': clients show it " +
        'to users, so say in one line what this server offers',
    );
  if (fields.userConfig.argsKeys.length > 0)
    warnings.push(
      'user_config args map: the values reach the server command line, which tools cannot read; map them to ' +
        'environment variables (MCPB_USER_CONFIG_ENV_MAP) instead',
    );
  const input = { fields, images, inventory, launch, platforms: request.platforms };
  const manifest = buildManifest({ ...input, promptsDir: projectLayout(root, {}).promptsDir }, warnings);
  const { tools, resources, resourceTemplates, prompts } = inventory;
  if (tools.length + resources.length + resourceTemplates.length + prompts.length === 0)
    warnings.push('the project offers no tools, resources or prompts');
  const entries: ArchiveEntry[] = [
    { path: 'manifest.json', mode: 0o644, data: Buffer.from(`${JSON.stringify(manifest, null, 2)}\n`) },
    ...images.entries,
    ...files.entries,
    ...inventory.registryEntries,
    ...launch.entries,
  ];
  return {
    ...input,
    fileName,
    manifest,
    entries,
    warnings,
    notes: [...inventory.notes, ...leftOutNote(files.leftOut)],
    /** Project files the exclusions left out (`--verbose` lists them). */
    leftOut: files.leftOut,
  };
}

/** A bundle ready to be written: its manifest, its files and what to tell the user. */
export type BundlePlan = Awaited<ReturnType<typeof planBundle>>;
