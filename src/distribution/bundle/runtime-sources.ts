import { readFileSync } from 'node:fs';
import { CliError, ExitCode } from '../../cli/cli-error.js';
import { selfInvocation } from '../../process/json-tool.js';

/** The OS names of MCPB manifests (`compatibility.platforms`, `platform_overrides`). */
export type Platform = 'darwin' | 'linux' | 'win32';
export const PLATFORMS: readonly Platform[] = ['darwin', 'linux', 'win32'];

/** The release targets of each OS (`npm run release` builds these). */
export const PLATFORM_TARGETS: Readonly<Record<Platform, readonly string[]>> = {
  darwin: ['darwin-x64', 'darwin-arm64'],
  linux: ['linux-x64', 'linux-arm64'],
  win32: ['win-x64'],
};

/** A release binary's file name, as build.mjs writes it: `mcp-bash-<target>[.exe]`. */
export function releaseBinaryName(target: string): string {
  return `mcp-bash-${target}${target.startsWith('win-') ? '.exe' : ''}`;
}

/** The release target of this machine (`linux-x64`, `darwin-arm64`, `win-x64`, ...). */
export function hostTarget(): string {
  const os = process.platform === 'win32' ? 'win' : process.platform;
  return `${os}-${process.arch}`;
}

/** The native binary this process is, or undefined when it runs as `node mcp-bash.cjs`. */
export function selfNativeBinary(): string | undefined {
  const invocation = selfInvocation();
  return invocation.length === 1 ? invocation[0] : undefined;
}

/**
 * The bytes of mcp-bash.cjs: the copy embedded in this binary (build.mjs puts one in), else
 * the .cjs file this process runs (`node mcp-bash.cjs bundle`).
 */
export function serverCjs(embedded: (() => Buffer | undefined) | undefined): Buffer {
  const fromBuild = embedded?.();
  if (fromBuild && fromBuild.length > 0) return fromBuild;
  const [, script] = selfInvocation();
  if (script?.endsWith('.cjs')) return readFileSync(script);
  throw new CliError(
    'this mcp-bash has no mcp-bash.cjs to put in a bundle (it runs from source, not from a build)',
    ExitCode.Failure,
    "Run the built binary (dist/mcp-bash) or 'node dist/mcp-bash.cjs' after 'npm run build'.",
  );
}
