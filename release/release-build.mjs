// The release: for each target a binary (pkg SEA, Linux ones stripped, darwin ones signed ad
// hoc), packed with LICENSE, README.md and THIRD-PARTY-NOTICES into a reproducible archive;
// then install.sh, the Homebrew formula and the Scoop manifest rendered with the archives'
// URLs and hashes, and SHA256SUMS over everything. Written to a temp dir and moved into place
// whole, so a reader never sees half a release.
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
  statSync,
  writeFileSync,
} from 'node:fs';
import { dirname, join } from 'node:path';
import { writeTarGz, writeZip } from './archive.mjs';
import { adHocSign } from './macho-sign.mjs';
import { verifyMachOSignature } from './macho-verify.mjs';
import { nodeBinaries, nodeLicensePath } from './node-binary.mjs';
import { bundledPackageDirs, renderNotices, withDependencies } from './notices.mjs';
import { renderFormula, renderInstallScript, renderScoopManifest } from './render.mjs';
import { archiveName, archiveRoot, binaryName, platformOf, releaseBaseUrl } from './targets.mjs';

const STAMP = '.release-stamp.json';
// 1980-01-01: the earliest time a zip entry can carry.
const FALLBACK_EPOCH = 315532800;

const sha256File = (path) => createHash('sha256').update(readFileSync(path)).digest('hex');

/** SOURCE_DATE_EPOCH, else the time of the commit being built, else 1980-01-01. */
export function sourceDateEpoch(root, env = process.env) {
  if (env.SOURCE_DATE_EPOCH !== undefined) {
    if (!/^\d+$/.test(env.SOURCE_DATE_EPOCH)) throw new Error('SOURCE_DATE_EPOCH must be whole seconds');
    return Math.max(Number(env.SOURCE_DATE_EPOCH), FALLBACK_EPOCH);
  }
  const git = spawnSync('git', ['log', '-1', '--format=%ct'], { cwd: root, encoding: 'utf8' });
  const commitTime = Number(git.stdout?.trim());
  return git.status === 0 && commitTime > 0 ? Math.max(commitTime, FALLBACK_EPOCH) : FALLBACK_EPOCH;
}

/** The release's settings: version, download location, homepage. */
export function releaseSettings(root, version, env = process.env) {
  const config = JSON.parse(readFileSync(join(root, 'release', 'release.json'), 'utf8'));
  const baseUrlTemplate = env.MCPBASH_RELEASE_BASE_URL || config.baseUrl;
  return {
    version,
    baseUrlTemplate,
    baseUrl: releaseBaseUrl(baseUrlTemplate, version),
    homepage: config.homepage,
  };
}

/** True when `outDir` already holds the release of these inputs and this time (`--if-needed`). */
export function releaseUpToDate(outDir, fingerprint, targets, settings, epoch) {
  const stampPath = join(outDir, STAMP);
  if (!existsSync(stampPath)) return false;
  const stamp = JSON.parse(readFileSync(stampPath, 'utf8'));
  return (
    stamp.fingerprint === fingerprint &&
    stamp.baseUrlTemplate === settings.baseUrlTemplate &&
    stamp.sourceDateEpoch === epoch &&
    JSON.stringify(stamp.targets) === JSON.stringify(targets) &&
    existsSync(join(outDir, 'SHA256SUMS'))
  );
}

function archiveEntries(target, binary, version, root, notices) {
  const top = archiveRoot(version, target);
  return [
    { path: `${top}/${binaryName(target)}`, mode: 0o755, source: binary },
    { path: `${top}/LICENSE`, mode: 0o644, source: join(root, 'LICENSE') },
    { path: `${top}/README.md`, mode: 0o644, source: join(root, 'README.md') },
    { path: `${top}/THIRD-PARTY-NOTICES`, mode: 0o644, content: Buffer.from(notices) },
  ];
}

function signDarwin(binary, target, log) {
  const signed = adHocSign(readFileSync(binary), 'mcp-bash');
  const check = verifyMachOSignature(signed);
  writeFileSync(binary, signed);
  log(`${target}: signed ad hoc (${check.codeDirectories[0].nCodeSlots} page hashes verified)`);
}

/** Builds one target's binary into `work` and its archive into `staging`; returns the archive's name. */
function buildTarget(target, context) {
  const { builder, root, version, work, staging, mtime, packageDirs, log } = context;
  const binary = join(work, `${target}-${binaryName(target)}`);
  builder.packBinary(target, binary, { strip: true });
  if (platformOf(target).os === 'darwin') signDarwin(binary, target, log);
  builder.checkBinary(target, binary);
  const notices = renderNotices({
    root,
    packageDirs,
    nodeVersion: nodeBinaries.version,
    nodeLicense: readFileSync(nodeLicensePath(target, { log }), 'utf8'),
  });
  const name = archiveName(version, target);
  const entries = archiveEntries(target, binary, version, root, notices);
  if (name.endsWith('.zip')) writeZip(join(staging, name), entries, mtime);
  else writeTarGz(join(staging, name), entries, mtime);
  rmSync(binary, { force: true });
  return name;
}

function writeTextFiles(staging, settings, targets, archives) {
  const sums = new Map(archives.map((name) => [name, sha256File(join(staging, name))]));
  const release = { ...settings, targets, sums };
  writeFileSync(join(staging, 'install.sh'), renderInstallScript(settings), { mode: 0o755 });
  writeFileSync(join(staging, 'mcp-bash.rb'), renderFormula(release));
  const manifest = renderScoopManifest(release);
  if (manifest !== null) writeFileSync(join(staging, 'mcp-bash.json'), manifest);
  const files = [...archives, 'install.sh', 'mcp-bash.rb', ...(manifest === null ? [] : ['mcp-bash.json'])].sort();
  const lines = files.map((name) => `${sums.get(name) ?? sha256File(join(staging, name))}  ${name}`);
  writeFileSync(join(staging, 'SHA256SUMS'), `${lines.join('\n')}\n`);
}

/** Replaces `outDir` with `staging`; refuses to delete a directory that is not a release. */
function moveIntoPlace(staging, outDir) {
  if (existsSync(outDir)) {
    const isRelease = existsSync(join(outDir, STAMP)) || existsSync(join(outDir, 'SHA256SUMS'));
    if (!isRelease) throw new Error(`${outDir} exists and is not a release directory; choose another --out`);
    rmSync(outDir, { recursive: true, force: true });
  }
  renameSync(staging, outDir);
}

/**
 * Builds the release of `targets` into `outDir`.
 * @param {object} options
 * @param {number} options.epoch SOURCE_DATE_EPOCH (sourceDateEpoch(), computed once by the caller)
 * @param {{ packBinary: Function, checkBinary: Function }} options.builder build.mjs's pkg step and smoke test
 * @param {object} options.metafile esbuild's metafile of the bundle inside the binaries
 * @param {string[]} options.embeddedPackageDirs packages whose files are embedded as assets
 */
export function buildRelease({
  root,
  version,
  targets,
  outDir,
  fingerprint,
  epoch,
  builder,
  metafile,
  embeddedPackageDirs,
  log,
}) {
  const settings = releaseSettings(root, version);
  mkdirSync(dirname(outDir), { recursive: true });
  const staging = mkdtempSync(`${outDir}.tmp-`);
  const work = mkdtempSync(`${outDir}.work-`);
  try {
    const packageDirs = withDependencies(root, [...bundledPackageDirs(metafile), ...embeddedPackageDirs]);
    const context = { builder, root, version, work, staging, mtime: new Date(epoch * 1000), packageDirs, log };
    const archives = targets.map((target) => buildTarget(target, context));
    writeTextFiles(staging, settings, targets, archives);
    const stamp = { fingerprint, targets, baseUrlTemplate: settings.baseUrlTemplate, sourceDateEpoch: epoch };
    writeFileSync(join(staging, STAMP), `${JSON.stringify(stamp, null, 2)}\n`);
    chmodSync(staging, 0o755);
    moveIntoPlace(staging, outDir);
    log(`release ${version} (SOURCE_DATE_EPOCH=${epoch}) in ${outDir}:`);
    for (const name of archives) log(`  ${name}  ${(statSync(join(outDir, name)).size / 1048576).toFixed(1)} MiB`);
  } finally {
    rmSync(work, { recursive: true, force: true });
    rmSync(staging, { recursive: true, force: true });
  }
}
