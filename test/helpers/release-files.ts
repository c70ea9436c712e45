/** One url/sha256 pair of a Homebrew formula, with the on_macos/on_linux and on_arm/on_intel blocks around it. */
export interface FormulaArchive {
  os: 'darwin' | 'linux';
  arch: 'arm64' | 'x64';
  url: string;
  sha256: string;
}

/**
 * Reads the per-platform archives out of a formula as Homebrew's DSL nests them:
 * `on_macos|on_linux do` > `on_arm|on_intel do` > `url "..."` + `sha256 "..."`.
 */
export function parseFormula(text: string): { version: string | undefined; archives: FormulaArchive[]; test: string } {
  const archives: FormulaArchive[] = [];
  let os: FormulaArchive['os'] | undefined;
  let arch: FormulaArchive['arch'] | undefined;
  let url: string | undefined;
  for (const line of text.split('\n').map((raw) => raw.trim())) {
    if (line === 'on_macos do') os = 'darwin';
    else if (line === 'on_linux do') os = 'linux';
    else if (line === 'on_arm do') arch = 'arm64';
    else if (line === 'on_intel do') arch = 'x64';
    else if (line.startsWith('url "')) url = line.slice(5, -1);
    else if (line.startsWith('sha256 "') && os && arch && url) {
      archives.push({ os, arch, url, sha256: line.slice(8, -1) });
      url = undefined;
    }
  }
  const test = /\n {2}test do\n([\s\S]*?)\n {2}end\n/.exec(text)?.[1] ?? '';
  return { version: /\n {2}version "([^"]+)"/.exec(text)?.[1], archives, test };
}

/** SHA256SUMS as a map from file name to hash. */
export function parseSums(text: string): Map<string, string> {
  const sums = new Map<string, string>();
  for (const line of text.trim().split('\n')) {
    const [hash, name] = line.split(/\s+\*?/);
    if (hash && name) sums.set(name, hash);
  }
  return sums;
}
