// Removes the symbol tables from a Linux Node binary before pkg injects our bundle (~17 MB
// less, and the binary still runs: Node needs only its dynamic symbols). llvm-strip handles
// every architecture; GNU strip only its own, so a cross strip is used when installed
// (Debian: binutils-aarch64-linux-gnu). Without a tool the binary ships unstripped, with a
// warning. Darwin binaries are not stripped: nothing here can run them to prove the result
// (see docs/RELEASE.md); Windows' node.exe carries no symbols (they live in a separate PDB).
import { spawnSync } from 'node:child_process';
import { statSync } from 'node:fs';

const GNU_TRIPLES = { x64: 'x86_64-linux-gnu', arm64: 'aarch64-linux-gnu' };

function candidates(target) {
  const [os, arch] = target.split('-');
  if (os !== 'linux') return [];
  const native = process.platform === 'linux' && process.arch === arch ? ['strip'] : [];
  return ['llvm-strip', `${GNU_TRIPLES[arch]}-strip`, ...native];
}

/**
 * Strips `path` in place when `target` is a Linux target and a strip tool for it exists.
 * @returns {{ tool: string, before: number, after: number } | null} null when not stripped
 */
export function stripNodeBinary(path, target, log = () => {}) {
  const tools = candidates(target);
  if (tools.length === 0) return null;
  const before = statSync(path).size;
  for (const tool of tools) {
    const run = spawnSync(tool, ['--strip-all', path], { encoding: 'utf8' });
    if (run.error) continue;
    if (run.status !== 0) throw new Error(`${tool} --strip-all ${path} failed: ${run.stderr.trim()}`);
    return { tool, before, after: statSync(path).size };
  }
  log(`warning: no strip tool for ${target} (tried ${tools.join(', ')}); its binary ships with symbols`);
  return null;
}
