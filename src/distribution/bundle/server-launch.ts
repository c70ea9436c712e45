import { CliError, ExitCode } from '../../cli/cli-error.js';
import { releaseBinaryIn } from './release-binaries.js';
import { hostTarget, PLATFORM_TARGETS, type Platform, releaseBinaryName } from './runtime-sources.js';
import type { ArchiveEntry } from './zip-writer.js';

/** `node`: mcp-bash.cjs run by the client's Node; `binary`: native binaries. */
export type RuntimeKind = 'node' | 'binary';

/** A command line of mcp_config, before the user_config arguments are added. */
export interface LaunchCommand {
  readonly command: string;
  readonly args: readonly string[];
}

/** How the bundle starts its server, and the files that takes. */
export interface ServerLaunch {
  readonly type: RuntimeKind;
  readonly entryPoint: string;
  readonly main: LaunchCommand;
  /** Per-OS commands that differ from `main` (MCPB's platform_overrides). */
  readonly overrides: Partial<Record<Platform, LaunchCommand>>;
  readonly entries: ArchiveEntry[];
  /** One line for the summary. */
  readonly description: string;
  readonly warnings: string[];
}

/** The Node versions mcp-bash.cjs runs on (it is built for node20). */
export const NODE_RANGE = '>=20.0.0';
const CJS_PATH = 'server/mcp-bash.cjs';
const LAUNCHER_PATH = 'server/run-server.sh';

/** The default runtime: mcp-bash.cjs, run by the `node` MCP clients ship (Claude Desktop does). */
export function nodeLaunch(cjs: Buffer): ServerLaunch {
  return {
    type: 'node',
    entryPoint: CJS_PATH,
    main: { command: 'node', args: [`\${__dirname}/${CJS_PATH}`] },
    overrides: {},
    entries: [{ path: CJS_PATH, mode: 0o755, data: cjs }],
    description: `node (${CJS_PATH}, Node ${NODE_RANGE})`,
    warnings: [],
  };
}

/** What `--runtime binary` needs to find its binaries. */
export interface BinarySources {
  readonly platforms: readonly Platform[];
  /** The native binary this process is (it serves its own target). */
  readonly self: string | undefined;
  /** `--binaries DIR`: release archives as `npm run release` writes them, or bare binaries. */
  readonly binariesDir: string | undefined;
  /** Where binaries read out of release archives are unpacked (the caller removes it). */
  readonly unpackDir: string;
  /** The launcher script (assets/scaffold/runtime/bundle-launcher.sh). */
  readonly launcher: string;
}

function findBinary(target: string, sources: BinarySources): string | undefined {
  if (sources.self && target === hostTarget()) return sources.self;
  if (!sources.binariesDir) return undefined;
  return releaseBinaryIn(sources.binariesDir, target, sources.unpackDir);
}

function binaryEntries(sources: BinarySources, warnings: string[]): ArchiveEntry[] {
  const entries: ArchiveEntry[] = [];
  const missingPlatforms: string[] = [];
  for (const platform of sources.platforms) {
    const found = PLATFORM_TARGETS[platform].map((target) => [target, findBinary(target, sources)] as const);
    for (const [target, path] of found) {
      if (path) entries.push({ path: `server/bin/${releaseBinaryName(target)}`, mode: 0o755, source: path });
      else if (found.some(([, other]) => other))
        warnings.push(`no ${releaseBinaryName(target)}: ${target} hosts cannot run this bundle`);
    }
    if (!found.some(([, path]) => path))
      missingPlatforms.push(`${platform} (${PLATFORM_TARGETS[platform].map(releaseBinaryName).join(' or ')})`);
  }
  if (missingPlatforms.length > 0) {
    throw new CliError(
      `--runtime binary: no binary for ${missingPlatforms.join(', ')}` +
        `${sources.binariesDir ? ` in ${sources.binariesDir}` : ''}`,
      ExitCode.Failure,
      "Pass --binaries DIR holding the release archives ('npm run release' writes them to dist/release/) or " +
        'binaries named mcp-bash-<os>-<arch>, or narrow --platform.',
    );
  }
  return entries;
}

function binaryCount(entries: readonly ArchiveEntry[]): string {
  const count = entries.filter((entry) => entry.path.startsWith('server/bin/')).length;
  return `${count} ${count === 1 ? 'binary' : 'binaries'}`;
}

/**
 * `--runtime binary`: the native binaries of the chosen OSes, started on darwin and linux by
 * a launcher that picks the CPU (platform_overrides know only the OS), on win32 directly.
 */
export function binaryLaunch(sources: BinarySources): ServerLaunch {
  const warnings: string[] = [];
  const entries = binaryEntries(sources, warnings);
  const unix = sources.platforms.some((platform) => platform !== 'win32');
  const windowsExe = `server/bin/${releaseBinaryName('win-x64')}`;
  const overrides: Partial<Record<Platform, LaunchCommand>> = {};
  if (unix) entries.push({ path: LAUNCHER_PATH, mode: 0o755, data: Buffer.from(sources.launcher) });
  if (unix && sources.platforms.includes('win32'))
    overrides.win32 = { command: `\${__dirname}/${windowsExe}`, args: [] };
  const entryPoint = unix ? LAUNCHER_PATH : windowsExe;
  return {
    type: 'binary',
    entryPoint,
    main: { command: `\${__dirname}/${entryPoint}`, args: [] },
    overrides,
    entries,
    description: `binary (${binaryCount(entries)}${unix ? `, ${LAUNCHER_PATH} picks one` : ''})`,
    warnings,
  };
}
