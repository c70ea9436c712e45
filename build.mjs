#!/usr/bin/env node
// Builds mcp-bash: the embedded asset archive, one bundled JS file, and native binaries.
//
//   node build.mjs               bundle + a native binary for this machine at dist/mcp-bash
//   node build.mjs --if-needed   the same, skipped when no input changed since the last build
//   node build.mjs --no-binary   bundle only (dist/mcp-bash.cjs, runs under plain node)
//   node build.mjs --all         also the release of every target in dist/release/ (npm run release)
//   node build.mjs --targets linux-arm64,win-x64   the release of chosen targets
//   node build.mjs --release     the release of this machine's target only
//   --out DIR                    write the release there instead of dist/release/
//   --if-needed                  with a release: reuse the bundle, and the release too when
//                                its inputs are unchanged (the tests' host release)
//
// A release holds one archive per target (binary, LICENSE, README.md, THIRD-PARTY-NOTICES),
// install.sh, the Homebrew formula, the Scoop manifest and SHA256SUMS: release/release-build.mjs.
// SOURCE_DATE_EPOCH (default: the commit time) dates every archive entry, so two builds of one
// commit give the same SHA256SUMS; MCPBASH_RELEASE_BASE_URL sets the download URL rendered in.
//
// Fully offline once `npm ci` has run: the Node binaries come from the npm registry
// (release/node-binary.mjs), pkg is installed from its own lockfile into .cache/pkg
// (release/pkg-tool.mjs), and pkg runs in SEA mode, which needs no download of its own.
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import {
  chmodSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import * as esbuild from 'esbuild';
import minimist from 'minimist';
import * as tar from 'tar';
import { hostTarget, nodeBinaries } from './release/node-binary.mjs';
import { packageDirsOf } from './release/notices.mjs';
import { canRun, checkFileType, packSeaBinary } from './release/pkg-binary.mjs';
import { buildRelease, releaseSettings, releaseUpToDate, sourceDateEpoch } from './release/release-build.mjs';
import { replaceFile } from './release/replace-file.mjs';

const root = dirname(fileURLToPath(import.meta.url));
const dist = join(root, 'dist');
const bundlePath = join(dist, 'mcp-bash.cjs');
const hostBinaryPath = join(dist, process.platform === 'win32' ? 'mcp-bash.exe' : 'mcp-bash');
const stampPath = join(dist, '.build-stamp.json');
const metafilePath = join(dist, 'mcp-bash.meta.json');
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
        contents:
          `export const serverCjsGzipBase64 = ` +
          `${JSON.stringify(serverCjs ? gzipSync(serverCjs, { level: 9 }).toString('base64') : '')};`,
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
    define: {
      __MCPBASH_VERSION__: JSON.stringify(version),
      __MCPBASH_RELEASE_BASE_URL__: JSON.stringify(releaseSettings(root, version, {}).baseUrlTemplate),
    },
    plugins: [embeddedAssetsPlugin(archive, hash, fileCount), serverCjsPlugin(serverCjs)],
    legalComments: 'none',
    logLevel: 'warning',
  };
}

async function bundle(archive, hash, fileCount) {
  const server = await esbuild.build({ ...esbuildOptions(archive, hash, fileCount, null), write: false });
  const serverCjs = Buffer.from(server.outputFiles[0].contents);
  const result = await esbuild.build({
    ...esbuildOptions(archive, hash, fileCount, serverCjs),
    outfile: bundlePath,
    sourcemap: 'linked',
    metafile: true,
    write: false,
  });
  // Each output replaces the old one in a rename (release/replace-file.mjs): tests running
  // the bundle during a build never read half of it.
  for (const output of result.outputFiles) {
    replaceFile(output.path, (tempPath) => {
      writeFileSync(tempPath, output.contents);
      if (output.path === bundlePath) chmodSync(tempPath, 0o755);
    });
  }
  // The release's THIRD-PARTY-NOTICES lists the packages this metafile names.
  writeFileSync(metafilePath, JSON.stringify(result.metafile));
}

/** pkg (release/pkg-binary.mjs) with this build's bundle, work dir and log. */
function packBinary(target, outPath, { strip = false } = {}) {
  packSeaBinary({ target, outPath, bundlePath, workDir: dist, strip, log });
}

/** pkg can exit 0 after a failed step, so every binary we can run is run. */
function smokeTest(command, prefixArgs, hash) {
  const home = mkdtempSync(join(tmpdir(), 'mcpbash-smoke-'));
  try {
    const env = { ...process.env, HOME: home, USERPROFILE: home, LOCALAPPDATA: join(home, 'AppData', 'Local') };
    delete env.XDG_DATA_HOME;
    delete env.MCPBASH_HOME;
    // --version extracts nothing; the built-in jq needs the framework files, so it extracts them.
    for (const [args, expected] of [
      [['--version'], `mcp-bash ${version}`],
      [['jq', '-n', '1'], '1'],
    ]) {
      const run = spawnSync(command, [...prefixArgs, ...args], { env, encoding: 'utf8', timeout: 60_000 });
      if (run.status !== 0 || run.stdout.trim() !== expected) {
        const cause = run.error ? `, ${run.error.message}` : '';
        throw new Error(
          `smoke test of ${command} ${args.join(' ')} failed: exit ${run.status}, stdout ` +
            `${JSON.stringify(run.stdout)}, stderr ${JSON.stringify(run.stderr)}${cause}`,
        );
      }
    }
    const dataDir = process.platform === 'win32' ? join(home, 'AppData', 'Local') : join(home, '.local', 'share');
    const marker = join(dataDir, 'mcp-bash', `${version}-${hash}`, '.mcpbash-assets.json');
    if (!existsSync(marker))
      throw new Error(`smoke test of ${command}: assets were not extracted to ${dirname(marker)}`);
  } finally {
    rmSync(home, { recursive: true, force: true });
  }
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

function parseArgs(argv) {
  return minimist(argv, {
    // `--no-binary` is minimist's negation of `binary`.
    boolean: ['all', 'release', 'if-needed', 'binary', 'help'],
    string: ['targets', 'out'],
    default: { binary: true },
    unknown: (flag) => {
      if (flag.startsWith('-')) throw new Error(`unknown option ${flag}; see the header of build.mjs`);
      return true;
    },
  });
}

function releaseTargets(args) {
  if (args.all) return Object.keys(nodeBinaries.targets);
  if (args.targets) {
    const targets = args.targets.split(',').filter(Boolean);
    for (const target of targets)
      if (!nodeBinaries.targets[target])
        throw new Error(`unknown target ${target}; known: ${Object.keys(nodeBinaries.targets).join(', ')}`);
    return targets;
  }
  if (!args.release) return [];
  const host = hostTarget();
  if (!host) throw new Error(`no release target for ${process.platform}-${process.arch}`);
  return [host];
}

/** The assets hash of the current bundle when --if-needed finds it up to date, else undefined. */
function upToDateBuild(args, fingerprint) {
  if (!args['if-needed'] || !existsSync(stampPath)) return undefined;
  const stamp = JSON.parse(readFileSync(stampPath, 'utf8'));
  const expected = [bundlePath, metafilePath, ...(args.binary ? [hostBinaryPath] : [])];
  // A bundle-only build (--no-binary) leaves an older host binary behind: not up to date for a build that wants it.
  const binaryBuilt = stamp.binary !== false || !args.binary;
  return stamp.fingerprint === fingerprint && binaryBuilt && expected.every((path) => existsSync(path))
    ? stamp.assetsHash
    : undefined;
}

/** Bundles and (unless --no-binary) packs the host binary; returns the assets hash. */
async function buildBundleAndHost(args, fingerprint) {
  mkdirSync(dist, { recursive: true });
  const files = collectAssets();
  const hash = contentHash(files);
  const archive = createArchive(files);
  log(`assets: ${files.length} files, ${(archive.length / 1024).toFixed(1)} KiB compressed, hash ${hash}`);
  await bundle(archive, hash, files.length);
  smokeTest(process.execPath, [bundlePath], hash);
  log(`wrote ${relative(root, bundlePath)} (${(statSync(bundlePath).size / 1024).toFixed(0)} KiB)`);
  if (args.binary) {
    const host = hostTarget();
    if (!host) throw new Error(`no native binary for ${process.platform}-${process.arch}; use --no-binary`);
    packBinary(host, hostBinaryPath);
    smokeTest(hostBinaryPath, [], hash);
    log(`wrote ${relative(root, hostBinaryPath)} (${(statSync(hostBinaryPath).size / 1048576).toFixed(0)} MiB)`);
  }
  const stamp = { fingerprint, version, assetsHash: hash, binary: args.binary };
  writeFileSync(stampPath, `${JSON.stringify(stamp, null, 2)}\n`);
  return hash;
}

/** The release's per-binary check: the right file type, and a run where this machine can. */
function checkBinary(hash) {
  return (target, path) => {
    checkFileType(path, target, log);
    if (target === hostTarget()) smokeTest(path, [], hash);
    else if (target === 'linux-arm64' && canRun('qemu-aarch64')) {
      // Debian's libc6-arm64-cross puts the arm64 loader and libraries there.
      const libs = existsSync('/usr/aarch64-linux-gnu') ? ['-L', '/usr/aarch64-linux-gnu'] : [];
      smokeTest('qemu-aarch64', [...libs, path], hash);
    }
  };
}

function release(args, targets, fingerprint, hash) {
  const outDir = args.out ? resolve(args.out) : join(dist, 'release');
  const epoch = sourceDateEpoch(root);
  if (args['if-needed'] && releaseUpToDate(outDir, fingerprint, targets, releaseSettings(root, version), epoch)) {
    log(`release in ${outDir} is up to date`);
    return;
  }
  buildRelease({
    root,
    version,
    targets,
    outDir,
    fingerprint,
    epoch,
    builder: { packBinary, checkBinary: checkBinary(hash) },
    metafile: JSON.parse(readFileSync(metafilePath, 'utf8')),
    embeddedPackageDirs: packageDirsOf(dependencyAssets.map((asset) => asset.from)),
    log,
  });
}

async function main() {
  const args = parseArgs(process.argv.slice(2));
  const targets = releaseTargets(args);
  const fingerprint = inputFingerprint();
  let hash = upToDateBuild(args, fingerprint);
  if (hash === undefined) hash = await buildBundleAndHost(args, fingerprint);
  else log('bundle up to date');
  if (targets.length > 0) release(args, targets, fingerprint, hash);
}

main().catch((error) => {
  log(`error: ${error.message}`);
  process.exitCode = 1;
});
