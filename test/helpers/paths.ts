import { dirname, join } from 'node:path';
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
