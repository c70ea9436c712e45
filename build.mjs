#!/usr/bin/env node
// Builds mcp-bash: the embedded asset archive, one bundled JS file, and native binaries.
//
//   node build.mjs               bundle + a native binary for this machine at dist/mcp-bash
//   node build.mjs --if-needed   the same, skipped when no input changed since the last build
//   node build.mjs --no-binary   bundle only (dist/mcp-bash.cjs, runs under plain node)
//   node build.mjs --all         also every release target under dist/release/, with SHA256SUMS
//   node build.mjs --targets linux-arm64,win-x64   chosen release targets
//
// Fully offline once `npm ci` has run: the Node binaries come from the npm registry
// (release/node-binary.mjs) and pkg runs in SEA mode, which needs no download of its own.
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import {
  chmodSync,
  copyFileSync,
  existsSync,
  constants as fsConstants,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, relative, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import * as esbuild from 'esbuild';
import minimist from 'minimist';
import * as tar from 'tar';
import { ensureNodeBinary, hostTarget, nodeBinaries } from './release/node-binary.mjs';

const root = dirname(fileURLToPath(import.meta.url));
const dist = join(root, 'dist');
const bundlePath = join(dist, 'mcp-bash.cjs');
const hostBinaryPath = join(dist, process.platform === 'win32' ? 'mcp-bash.exe' : 'mcp-bash');
const stampPath = join(dist, '.build-stamp.json');
const pkgJson = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));
const version = pkgJson.version;

// What goes into the binary, and where it lands in the extracted framework home.
const assetSources = [
  { from: 'sdk-sh', to: 'sdk' },
  { from: 'assets', to: '' },
];
// Single files from dependencies, loaded at run time from the extracted home (never bundled):
// the built-in `mcp-bash jq` (jq 1.8.2 compiled to WebAssembly) stays out of the start-up path.
const dependencyAssets = [
  { from: 'node_modules/jq-wasm/dist/index.cjs', to: 'lib/jq-wasm/index.cjs' },
  { from: 'node_modules/jq-wasm/dist/build/jq.wasm', to: 'lib/jq-wasm/jq.wasm' },
  { from: 'node_modules/jq-wasm/LICENSE', to: 'lib/jq-wasm/LICENSE' },
];
const buildInputs = ['src', 'sdk-sh', 'assets', 'build.mjs', 'package.json', 'package-lock.json', 'release'];
const ignoredNames = new Set(['.DS_Store', 'Thumbs.db', 'node_modules', '.registry']);

const log = (message) => process.stderr.write(`build: ${message}\n`);

function walkFiles(dir) {
  if (!existsSync(dir)) return [];
  const out = [];
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    if (ignoredNames.has(entry.name)) continue;
    const full = join(dir, entry.name);
    if (entry.isDirectory()) out.push(...walkFiles(full));
    else if (entry.isFile()) out.push(full);
  }
  return out;
}

const toPosix = (path) => path.split(sep).join('/');

/** Every asset file with its archive path, normalised mode and content, sorted by path. */
function collectAssets() {
  const files = [];
  for (const { from, to } of assetSources) {
    const base = join(root, from);
    for (const abs of walkFiles(base)) {
      const content = readFileSync(abs);
      const rel = toPosix(relative(base, abs));
      // Exec bits do not survive every checkout (Windows), so a shebang also makes a file executable.
      const executable = (statSync(abs).mode & 0o111) !== 0 || content.subarray(0, 2).toString() === '#!';
      files.push({ path: to ? `${to}/${rel}` : rel, mode: executable ? 0o755 : 0o644, content });
    }
  }
  for (const { from, to } of dependencyAssets) {
    files.push({ path: to, mode: 0o644, content: readFileSync(join(root, from)) });
  }
  files.push({ path: 'VERSION', mode: 0o644, content: Buffer.from(`${version}\n`) });
  return files.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
}

/** A hash of paths, modes and contents: it names the extraction directory. */
function contentHash(files) {
  const hash = createHash('sha256');
  for (const file of files) {
    hash.update(`${file.path}\0${file.mode.toString(8)}\0`);
    hash.update(createHash('sha256').update(file.content).digest());
  }
  return hash.digest('hex').slice(0, 12);
}

/** A reproducible gzipped tar of the assets: fixed mtime, no owner names, sorted entries. */
function createArchive(files) {
  const staging = mkdtempSync(join(tmpdir(), 'mcpbash-assets-'));
  try {
    for (const file of files) {
      const dest = join(staging, ...file.path.split('/'));
      mkdirSync(dirname(dest), { recursive: true });
      writeFileSync(dest, file.content);
      chmodSync(dest, file.mode);
    }
    const archivePath = join(staging, '..', `${staging.split(sep).pop()}.tgz`);
    tar.c(
      { cwd: staging, file: archivePath, sync: true, gzip: { level: 9 }, portable: true, mtime: new Date(0) },
      files.map((file) => file.path),
    );
    const archive = readFileSync(archivePath);
    rmSync(archivePath, { force: true });
    return archive;
  } finally {
    rmSync(staging, { recursive: true, force: true });
  }
}

function embeddedAssetsPlugin(archive, hash, fileCount) {
  return {
    name: 'embedded-assets',
    setup(build) {
      build.onResolve({ filter: /^virtual:embedded-assets$/ }, (args) => ({ path: args.path, namespace: 'embedded' }));
      build.onLoad({ filter: /.*/, namespace: 'embedded' }, () => ({
        loader: 'js',
        contents: [
          `export const archiveBase64 = ${JSON.stringify(archive.toString('base64'))};`,
          `export const contentHash = ${JSON.stringify(hash)};`,
          `export const fileCount = ${fileCount};`,
        ].join('\n'),
      }));
    },
  };
}

// The bundle carries a gzipped copy of itself minus that copy (the "server" build), so the
// native binary can write mcp-bash.cjs into .mcpb bundles and vendored trees: the SEA cannot
// read its own script back. Built twice: first without the copy, then with it.
function serverCjsPlugin(serverCjs) {
  return {
    name: 'server-cjs',
    setup(build) {
      build.onResolve({ filter: /^virtual:server-cjs$/ }, (args) => ({ path: args.path, namespace: 'server-cjs' }));
      build.onLoad({ filter: /.*/, namespace: 'server-cjs' }, () => ({
        loader: 'js',
        contents: `export const serverCjsGzipBase64 = ${JSON.stringify(serverCjs ? gzipSync(serverCjs, { level: 9 }).toString('base64') : '')};`,
      }));
    },
  };
}

function esbuildOptions(archive, hash, fileCount, serverCjs) {
  return {
    entryPoints: [join(root, 'src/main.ts')],
    bundle: true,
    platform: 'node',
    target: 'node20',
    format: 'cjs',
    banner: { js: '#!/usr/bin/env node' },
    define: { __MCPBASH_VERSION__: JSON.stringify(version) },
    plugins: [embeddedAssetsPlugin(archive, hash, fileCount), serverCjsPlugin(serverCjs)],
    legalComments: 'none',
    logLevel: 'warning',
  };
}

async function bundle(archive, hash, fileCount) {
  const server = await esbuild.build({ ...esbuildOptions(archive, hash, fileCount, null), write: false });
  const serverCjs = Buffer.from(server.outputFiles[0].contents);
  await esbuild.build({
    ...esbuildOptions(archive, hash, fileCount, serverCjs),
    outfile: bundlePath,
    sourcemap: 'linked',
  });
  chmodSync(bundlePath, 0o755);
}

/** Seeds pkg's SEA cache (it looks under $HOME/.pkg-cache/sea) with our verified Node binary. */
function seedPkgCache(pkgHome, target, nodePath) {
  const seaDir = join(pkgHome, '.pkg-cache', 'sea');
  const base = `node-v${nodeBinaries.version}-${target}`;
  mkdirSync(seaDir, { recursive: true });
  const touch = (path) => writeFileSync(path, '');
  if (target.startsWith('win-')) {
    const exe = join(seaDir, `${base}.exe`);
    copyFileSync(nodePath, exe, fsConstants.COPYFILE_FICLONE);
    stripAuthenticode(exe);
    for (const path of [`${exe}.ok`, join(seaDir, `${base}.zip`), join(seaDir, `${base}.zip.ok`)]) touch(path);
    return;
  }
  const binDir = join(seaDir, base, 'bin');
  mkdirSync(binDir, { recursive: true });
  copyFileSync(nodePath, join(binDir, 'node'), fsConstants.COPYFILE_FICLONE);
  for (const path of [join(seaDir, `${base}.tar.gz`), join(seaDir, `${base}.tar.gz.ok`), join(binDir, 'node.ok')]) {
    touch(path);
  }
}

// A stale Authenticode directory would survive injection and make the .exe look tampered with.
function stripAuthenticode(exe) {
  const run = spawnSync('osslsigncode', ['remove-signature', '-in', exe, '-out', `${exe}.unsigned`], {
    encoding: 'utf8',
  });
  if (run.error || run.status !== 0) {
    log("warning: osslsigncode unavailable or failed; the Windows binary keeps node.exe's stale signature");
    return;
  }
  copyFileSync(`${exe}.unsigned`, exe);
  rmSync(`${exe}.unsigned`, { force: true });
}

function packBinary(target, outPath) {
  const pin = nodeBinaries.targets[target];
  const host = hostTarget();
  if (!host)
    throw new Error(
      `cannot run pkg here: no Node ${nodeBinaries.version} binary for ${process.platform}-${process.arch}`,
    );
  // pkg >= 6.14 needs Node >= 22 to run, so it runs on the pinned host binary, not on our Node.
  const runner = ensureNodeBinary(host, { log });
  const targetNode = ensureNodeBinary(target, { log });
  const pkgHome = mkdtempSync(join(dist, '.pkg-home-'));
  try {
    seedPkgCache(pkgHome, target, targetNode);
    mkdirSync(dirname(outPath), { recursive: true });
    rmSync(outPath, { force: true });
    const args = [
      join(root, 'node_modules/@yao-pkg/pkg/lib-es5/bin.js'),
      '--sea',
      '-t',
      `node${nodeBinaries.version}-${pin.pkgTarget}`,
      '-o',
      outPath,
      bundlePath,
    ];
    if (target.startsWith('darwin-')) args.push('--no-signature');
    const run = spawnSync(runner, args, {
      cwd: dist,
      env: { ...process.env, HOME: pkgHome, USERPROFILE: pkgHome },
      encoding: 'utf8',
    });
    if (run.status !== 0 || !existsSync(outPath)) {
      throw new Error(`pkg failed for ${target} (exit ${run.status}):\n${run.stdout}${run.stderr}`);
    }
  } finally {
    rmSync(pkgHome, { recursive: true, force: true });
  }
}

/** pkg can exit 0 after a failed step, so every binary we can run is run. */
function smokeTest(command, prefixArgs, hash) {
  const home = mkdtempSync(join(tmpdir(), 'mcpbash-smoke-'));
  try {
    const env = { ...process.env, HOME: home, USERPROFILE: home, LOCALAPPDATA: join(home, 'AppData', 'Local') };
    delete env.XDG_DATA_HOME;
    delete env.MCPBASH_HOME;
    const run = spawnSync(command, [...prefixArgs, '--version'], { env, encoding: 'utf8', timeout: 60_000 });
    const expected = `mcp-bash ${version}`;
    if (run.status !== 0 || run.stdout.trim() !== expected) {
      throw new Error(
        `smoke test of ${command} failed: exit ${run.status}, stdout ${JSON.stringify(run.stdout)}, stderr ${JSON.stringify(run.stderr)}${run.error ? `, ${run.error.message}` : ''}`,
      );
    }
    const dataDir = process.platform === 'win32' ? join(home, 'AppData', 'Local') : join(home, '.local', 'share');
    const marker = join(dataDir, 'mcp-bash', `${version}-${hash}`, '.mcpbash-assets.json');
    if (!existsSync(marker))
      throw new Error(`smoke test of ${command}: assets were not extracted to ${dirname(marker)}`);
  } finally {
    rmSync(home, { recursive: true, force: true });
  }
}

function checkFileType(path, target) {
  const run = spawnSync('file', ['-b', path], { encoding: 'utf8' });
  if (run.error) {
    log(`warning: 'file' is not installed; ${target} binary not inspected`);
    return;
  }
  const pattern = new RegExp(nodeBinaries.targets[target].fileType);
  if (!pattern.test(run.stdout)) throw new Error(`${path} is not a ${target} executable: ${run.stdout.trim()}`);
  log(`${target}: ${run.stdout.trim().slice(0, 80)}`);
}

function canRun(command) {
  return !spawnSync(command, ['--version'], { encoding: 'utf8' }).error;
}

function inputFingerprint() {
  const hash = createHash('sha256');
  for (const input of buildInputs) {
    const abs = join(root, input);
    if (!existsSync(abs)) continue;
    const files = statSync(abs).isDirectory() ? walkFiles(abs) : [abs];
    for (const file of files.sort()) {
      const st = statSync(file);
      hash.update(`${relative(root, file)}\0${st.size}\0${st.mtimeMs}\0${st.mode}\n`);
    }
  }
  return hash.digest('hex');
}

function releaseName(target) {
  return `mcp-bash-${target}${target.startsWith('win-') ? '.exe' : ''}`;
}

async function main() {
  const args = minimist(process.argv.slice(2), {
    // `--no-binary` is minimist's negation of `binary`.
    boolean: ['all', 'if-needed', 'binary', 'help'],
    string: ['targets'],
    default: { binary: true },
    unknown: (flag) => {
      if (flag.startsWith('-')) throw new Error(`unknown option ${flag}; see the header of build.mjs`);
      return true;
    },
  });
  const wantsBinary = args.binary;
  const targets = args.all ? Object.keys(nodeBinaries.targets) : args.targets ? args.targets.split(',') : [];
  const fingerprint = inputFingerprint();
  const expectedOutputs = [bundlePath, ...(wantsBinary ? [hostBinaryPath] : [])];
  if (args['if-needed'] && targets.length === 0 && existsSync(stampPath)) {
    const stamp = JSON.parse(readFileSync(stampPath, 'utf8'));
    if (stamp.fingerprint === fingerprint && expectedOutputs.every((path) => existsSync(path))) {
      log('up to date');
      return;
    }
  }

  mkdirSync(dist, { recursive: true });
  const files = collectAssets();
  const hash = contentHash(files);
  const archive = createArchive(files);
  log(`assets: ${files.length} files, ${(archive.length / 1024).toFixed(1)} KiB compressed, hash ${hash}`);
  await bundle(archive, hash, files.length);
  smokeTest(process.execPath, [bundlePath], hash);
  log(`wrote ${relative(root, bundlePath)} (${(statSync(bundlePath).size / 1024).toFixed(0)} KiB)`);

  if (wantsBinary) {
    const host = hostTarget();
    if (!host) throw new Error(`no native binary for ${process.platform}-${process.arch}; use --no-binary`);
    packBinary(host, hostBinaryPath);
    smokeTest(hostBinaryPath, [], hash);
    log(`wrote ${relative(root, hostBinaryPath)} (${(statSync(hostBinaryPath).size / 1048576).toFixed(0)} MiB)`);
  }

  if (targets.length > 0) {
    const releaseDir = join(dist, 'release');
    mkdirSync(releaseDir, { recursive: true });
    const sums = [];
    for (const target of targets) {
      const out = join(releaseDir, releaseName(target));
      packBinary(target, out);
      checkFileType(out, target);
      if (target === hostTarget()) smokeTest(out, [], hash);
      else if (target === 'linux-arm64' && canRun('qemu-aarch64')) smokeTest('qemu-aarch64', [out], hash);
      sums.push(`${createHash('sha256').update(readFileSync(out)).digest('hex')}  ${releaseName(target)}`);
    }
    writeFileSync(join(releaseDir, 'SHA256SUMS'), `${sums.join('\n')}\n`);
    log(`wrote ${targets.length} release binaries and SHA256SUMS to ${relative(root, releaseDir)}`);
  }

  writeFileSync(stampPath, `${JSON.stringify({ fingerprint, version, assetsHash: hash }, null, 2)}\n`);
}

main().catch((error) => {
  log(`error: ${error.message}`);
  process.exitCode = 1;
});
