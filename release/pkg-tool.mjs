#!/usr/bin/env node
// Installs the pinned @yao-pkg/pkg (release/pkg/package.json and its lockfile) into
// .cache/pkg/, run by the pinned Node 22 binary (release/node-binary.mjs).
//
// pkg >= 6.14 needs Node >= 22. As a devDependency of the project, `npm ci` on the Node 20
// the README allows printed EBADENGINE warnings for it; installed here, with npm itself
// running under Node 22, nothing complains, and the versions stay pinned by a lockfile
// (npm ci verifies every package's integrity). Only the npm registry is needed, like the
// Node binaries. `npm ci` runs this for the project (the `prepare` script), so a later
// `npm run build` needs no network.
//
// Usage: node release/pkg-tool.mjs          (prints the path of pkg's bin.js)
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
const manifestDir = join(repoRoot, 'release', 'pkg');
const PKG_BIN = join('node_modules', '@yao-pkg', 'pkg', 'lib-es5', 'bin.js');

/** A short hash of the pinned manifest and lockfile: it names the install directory. */
function pinHash() {
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
 * Returns the path of pkg's bin.js, installing the pinned version first when the cache
 * lacks it. Throws when the install fails.
 */
export function ensurePkg({ log = () => {} } = {}) {
  const finalDir = join(repoRoot, '.cache', 'pkg', pinHash());
  const bin = join(finalDir, PKG_BIN);
  if (existsSync(bin) && existsSync(join(finalDir, '.ok'))) return bin;
  const host = hostTarget();
  if (!host) throw new Error(`no Node binary to run pkg on ${process.platform}-${process.arch}`);
  const node = ensureNodeBinary(host, { log });
  const cli = npmCli();
  if (!cli) throw new Error('npm was not found: install the pinned pkg needs npm (it comes with Node)');
  log('installing the pinned @yao-pkg/pkg into .cache/pkg (npm ci under Node 22)');
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
      throw new Error(`npm ci of release/pkg failed (exit ${run.status}): ${run.error?.message ?? ''}${run.stderr}`);
    if (!existsSync(join(work, PKG_BIN))) throw new Error(`the pkg install has no ${PKG_BIN}`);
    writeFileSync(join(work, '.ok'), `${pinHash()}\n`);
    rmSync(finalDir, { recursive: true, force: true });
    renameSync(work, finalDir);
    return bin;
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  try {
    const bin = ensurePkg({ log: (message) => console.error(`pkg-tool: ${message}`) });
    console.error(`pkg-tool: pkg ready at ${bin}`);
  } catch (error) {
    console.error(`pkg-tool: ${error.message}`);
    process.exitCode = 1;
  }
}
