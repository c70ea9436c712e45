// THIRD-PARTY-NOTICES: the licenses of everything compiled into the binary, generated from the
// build's own inputs so it cannot drift: the npm packages esbuild put into the bundle (its
// metafile lists every input file), the packages whose files are embedded as assets, Node
// itself (its LICENSE covers V8, OpenSSL, ICU, libuv and the rest it bundles), and the parts of
// jq compiled into jq-wasm, whose npm package carries only the wrapper's license.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const LICENSE_FILE = /^(licen[cs]e|copying)(\.(md|txt|markdown))?$/i;
const releaseDir = dirname(fileURLToPath(import.meta.url));

/**
 * The package directories (relative to the repo, '/'-separated) that `paths` live in: the
 * innermost `node_modules/<name>` or `node_modules/@scope/<name>` of each.
 * @param {string[]} paths
 * @returns {string[]} sorted, each once
 */
export function packageDirsOf(paths) {
  const dirs = new Set();
  for (const path of paths) {
    const parts = path.split('/');
    const at = parts.lastIndexOf('node_modules');
    if (at < 0 || at + 1 >= parts.length) continue;
    const length = parts[at + 1].startsWith('@') ? 3 : 2;
    dirs.add(parts.slice(0, at + length).join('/'));
  }
  return [...dirs].sort();
}

/** The npm packages esbuild bundled, from its metafile. */
export function bundledPackageDirs(metafile) {
  return packageDirsOf(Object.keys(metafile.inputs));
}

function resolveDependency(root, fromDir, name) {
  // Node's lookup: the package's own node_modules, then each parent's, up to the root's.
  const parts = fromDir.split('/');
  for (let depth = parts.length; depth >= 0; depth -= 1) {
    const candidate = [...parts.slice(0, depth), 'node_modules', name].join('/');
    if (existsSync(join(root, candidate, 'package.json'))) return candidate;
  }
  throw new Error(`cannot find ${name}, a dependency of ${fromDir}`);
}

/**
 * `dirs` plus their runtime dependencies, transitively. Some packages ship code bundled with
 * their dependencies (tar's index.min.js holds minipass, minizlib, ...), so the metafile alone
 * would miss those; listing a dependency that did not end up in the bundle costs nothing.
 */
export function withDependencies(root, dirs) {
  const seen = new Set();
  const queue = [...dirs];
  while (queue.length > 0) {
    const dir = queue.shift();
    if (seen.has(dir)) continue;
    seen.add(dir);
    const pkg = JSON.parse(readFileSync(join(root, dir, 'package.json'), 'utf8'));
    for (const name of Object.keys(pkg.dependencies ?? {})) queue.push(resolveDependency(root, dir, name));
  }
  return [...seen].sort();
}

function licenseText(root, dir) {
  const files = readdirSync(join(root, dir)).filter((name) => LICENSE_FILE.test(name));
  if (files.length === 0) return null;
  return files
    .sort()
    .map((name) => readFileSync(join(root, dir, name), 'utf8').trim())
    .join('\n\n');
}

function section(title, body) {
  return `${'='.repeat(78)}\n${title}\n${'='.repeat(78)}\n\n${body.trim()}\n`;
}

/**
 * One notice per package: name, version, license, and its license file(s).
 * Throws when a package ships no license file: a notice must not silently go missing.
 */
export function packageNotices(root, dirs) {
  return dirs.map((dir) => {
    const pkg = JSON.parse(readFileSync(join(root, dir, 'package.json'), 'utf8'));
    const text = licenseText(root, dir);
    if (text === null)
      throw new Error(`${pkg.name}@${pkg.version} (${dir}) has no LICENSE file to copy into the notices`);
    return { name: pkg.name, version: pkg.version, license: pkg.license ?? 'see below', text };
  });
}

/** The notices we keep in release/third-party/ for code that arrives without its own. */
function keptNotices() {
  const dir = join(releaseDir, 'third-party');
  if (!existsSync(dir)) return [];
  return readdirSync(dir)
    .filter((name) => name.endsWith('.txt'))
    .sort()
    .map((name) => readFileSync(join(dir, name), 'utf8'));
}

/**
 * Renders THIRD-PARTY-NOTICES.
 * @param {object} options
 * @param {string} options.root          the repository root
 * @param {string[]} options.packageDirs package directories (bundled and embedded)
 * @param {string} options.nodeVersion
 * @param {string} options.nodeLicense   Node's LICENSE text
 */
export function renderNotices({ root, packageDirs, nodeVersion, nodeLicense }) {
  const packages = packageNotices(root, packageDirs);
  const parts = [
    [
      'THIRD-PARTY SOFTWARE NOTICES',
      '',
      'The mcp-bash binary is Node.js with the mcp-bash program embedded in it. It contains:',
      `  - Node.js ${nodeVersion} and the libraries Node.js bundles (first section below);`,
      ...packages.map((pkg) => `  - ${pkg.name} ${pkg.version} (${pkg.license})`),
      '  - jq and the libraries compiled into jq-wasm (last sections).',
      'mcp-bash itself is under the MIT license (LICENSE).',
      '',
    ].join('\n'),
    section(`Node.js ${nodeVersion}`, nodeLicense),
    ...packages.map((pkg) => section(`${pkg.name} ${pkg.version} (${pkg.license})`, pkg.text)),
    ...keptNotices(),
  ];
  return `${parts.join('\n')}`;
}
