import { existsSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The repository root. */
export const repoRoot = join(dirname(fileURLToPath(import.meta.url)), '..', '..');

/**
 * The binary under test: the native build by default; MCPBASH_TEST_BIN may name another
 * (for example `dist/mcp-bash.cjs`, run with the current node).
 */
export const binaryPath =
  process.env.MCPBASH_TEST_BIN ?? join(repoRoot, 'dist', process.platform === 'win32' ? 'mcp-bash.exe' : 'mcp-bash');

/** How to start the binary: the .cjs bundle runs under the current node. */
export function binaryCommand(): { command: string; prefix: string[] } {
  return binaryPath.endsWith('.cjs')
    ? { command: process.execPath, prefix: [binaryPath] }
    : { command: binaryPath, prefix: [] };
}

/**
 * A built binary to run as a command: the binary under test, or the .cjs bundle when only
 * that is built (`node build.mjs --no-binary`); undefined when neither is. The native one
 * starts in about half the time, which counts for scripts that call it for every jq filter.
 */
export function builtBinary(): string | undefined {
  for (const candidate of [resolve(repoRoot, binaryPath), join(repoRoot, 'dist', 'mcp-bash.cjs')])
    if (existsSync(candidate)) return candidate;
  return undefined;
}
