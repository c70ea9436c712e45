#!/usr/bin/env node
// Installs the pinned @yao-pkg/pkg (release/pkg/package.json and its lockfile) into
// .cache/pkg/, run by the pinned Node 22 binary (release/node-binary.mjs); and the same way
// the official MCP conformance runners the tests use (test/conformance/, into
// .cache/conformance/), which need Node 22 too.
//
// pkg >= 6.14 needs Node >= 22. As a devDependency of the project, `npm ci` on the Node 20
// the README allows printed EBADENGINE warnings for it; installed here, with npm itself
// running under Node 22, nothing complains, and the versions stay pinned by a lockfile
// (npm ci verifies every package's integrity). Only the npm registry is needed, like the
// Node binaries. `npm ci` runs this for the project (the `prepare` script), so a later
// `npm run build` needs no network.
//
// Usage: node release/pkg-tool.mjs          (installs both; says where pkg's bin.js is)
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import {
  copyFileSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  realpathSync,
  renameSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { delimiter, dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { ensureNodeBinary, hostTarget } from './node-binary.mjs';

const repoRoot = dirname(dirname(fileURLToPath(import.meta.url)));

/** A short hash of the pinned manifest and lockfile: it names the install directory. */
function pinHash(manifestDir) {
  const hash = createHash('sha256');
  for (const file of ['package.json', 'package-lock.json']) hash.update(readFileSync(join(manifestDir, file)));
  return hash.digest('hex').slice(0, 12);
}

/** npm's own CLI script, to run under Node 22: the one running us, else the `npm` on PATH. */
function npmCli() {
  const fromScript = process.env.npm_execpath;
  if (fromScript && /npm-cli\.c?js$/.test(fromScript) && existsSync(fromScript)) return fromScript;
  for (const dir of (process.env.PATH ?? '').split(delimiter)) {
    if (!dir) continue;
    const candidate = join(dir, process.platform === 'win32' ? 'npm.cmd' : 'npm');
    if (!existsSync(candidate)) continue;
    const real = realpathSync(candidate);
    if (/npm-cli\.c?js$/.test(real)) return real;
    const beside = join(dirname(real), '..', 'lib', 'node_modules', 'npm', 'bin', 'npm-cli.js');
    if (existsSync(beside)) return beside;
  }
  return null;
}

/**
 * The inner npm keeps how the outer one reaches the registry (registry, proxies, TLS, cache,
 * config files) but none of what it was asked to do (--package-lock-only, --global,
 * --omit, --prefix, ...): `prepare` runs with the outer command's settings exported.
 */
function npmEnv() {
  const keep = new RegExp(
    '^npm_config_(registry|@.*:registry|\\/\\/.*|_auth.*|proxy|https?_proxy|no_?proxy|cafile|ca|cert|key|' +
      'strict_ssl|cache|userconfig|globalconfig|fetch_.*|maxsockets|offline|prefer_offline|prefer_online|node_gyp)$',
    'i',
  );
  const env = { ...process.env };
  for (const key of Object.keys(env)) if (/^npm_config_/i.test(key) && !keep.test(key)) delete env[key];
  return env;
}

/**
 * Installs the pinned packages of `manifestDir` (its package.json and lockfile, `npm ci`
 * under Node 22) into .cache/<cacheName>/<hash>/ unless already there (`entry` in it says
 * it is); returns that directory. Throws when the install fails.
 */
function ensurePinned({ manifestDir, cacheName, entry, log }) {
  const hash = pinHash(manifestDir);
  const finalDir = join(repoRoot, '.cache', cacheName, hash);
  if (existsSync(join(finalDir, entry)) && existsSync(join(finalDir, '.ok'))) return finalDir;
  const host = hostTarget();
  if (!host) throw new Error(`no Node binary to run ${cacheName} on ${process.platform}-${process.arch}`);
  const node = ensureNodeBinary(host, { log });
  const cli = npmCli();
  if (!cli) throw new Error(`npm was not found: installing the pinned ${cacheName} needs npm (it comes with Node)`);
  log(`installing the pinned ${cacheName} into .cache/${cacheName} (npm ci under Node 22)`);
  mkdirSync(dirname(finalDir), { recursive: true });
  const work = mkdtempSync(`${finalDir}.tmp-`);
  try {
    for (const file of ['package.json', 'package-lock.json']) copyFileSync(join(manifestDir, file), join(work, file));
    const run = spawnSync(node, [cli, 'ci', '--ignore-scripts', '--no-audit', '--no-fund', '--loglevel=error'], {
      cwd: work,
      env: npmEnv(),
      encoding: 'utf8',
      maxBuffer: 64 * 1024 * 1024,
    });
    if (run.error || run.status !== 0)
      throw new Error(`npm ci of ${manifestDir} failed (exit ${run.status}): ${run.error?.message ?? ''}${run.stderr}`);
    if (!existsSync(join(work, entry))) throw new Error(`the ${cacheName} install has no ${entry}`);
    writeFileSync(join(work, '.ok'), `${hash}\n`);
    rmSync(finalDir, { recursive: true, force: true });
    renameSync(work, finalDir);
    return finalDir;
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}

/** The path of the pinned pkg's bin.js, installed first when the cache lacks it. */
export function ensurePkg({ log = () => {} } = {}) {
  const entry = join('node_modules', '@yao-pkg', 'pkg', 'lib-es5', 'bin.js');
  return join(ensurePinned({ manifestDir: join(repoRoot, 'release', 'pkg'), cacheName: 'pkg', entry, log }), entry);
}

/**
 * The node_modules directory holding the pinned conformance runners (0.1.16 as
 * `@modelcontextprotocol/conformance`, the newest pre-release as `conformance-next`),
 * installed first when the cache lacks them.
 */
export function ensureConformance({ log = () => {} } = {}) {
  const entry = join('node_modules', 'conformance-next', 'dist', 'index.js');
  const manifestDir = join(repoRoot, 'test', 'conformance');
  return join(ensurePinned({ manifestDir, cacheName: 'conformance', entry, log }), 'node_modules');
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  try {
    const log = (message) => console.error(`pkg-tool: ${message}`);
    const bin = ensurePkg({ log });
    console.error(`pkg-tool: pkg ready at ${bin}`);
    console.error(`pkg-tool: conformance runners ready in ${ensureConformance({ log })}`);
  } catch (error) {
    console.error(`pkg-tool: ${error.message}`);
    process.exitCode = 1;
  }
}
