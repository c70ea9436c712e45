// pkg's SEA mode, offline: our verified Node binary goes into the cache pkg looks in, pkg runs
// on the pinned host Node, and the output is checked with `file`.
import { spawnSync } from 'node:child_process';
import {
  copyFileSync,
  existsSync,
  constants as fsConstants,
  mkdirSync,
  mkdtempSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { dirname, join } from 'node:path';
import { ensureNodeBinary, hostTarget, nodeBinaries } from './node-binary.mjs';
import { ensurePkg } from './pkg-tool.mjs';
import { replaceFile } from './replace-file.mjs';
import { stripNodeBinary } from './strip.mjs';

/** Seeds pkg's SEA cache (it looks under $HOME/.pkg-cache/sea) with our verified Node binary. */
function seedPkgCache(pkgHome, target, nodePath, strip, log) {
  const seaDir = join(pkgHome, '.pkg-cache', 'sea');
  const base = `node-v${nodeBinaries.version}-${target}`;
  mkdirSync(seaDir, { recursive: true });
  const touch = (path) => writeFileSync(path, '');
  if (target.startsWith('win-')) {
    const exe = join(seaDir, `${base}.exe`);
    copyFileSync(nodePath, exe, fsConstants.COPYFILE_FICLONE);
    stripAuthenticode(exe, log);
    for (const path of [`${exe}.ok`, join(seaDir, `${base}.zip`), join(seaDir, `${base}.zip.ok`)]) touch(path);
    return;
  }
  const binDir = join(seaDir, base, 'bin');
  mkdirSync(binDir, { recursive: true });
  copyFileSync(nodePath, join(binDir, 'node'), fsConstants.COPYFILE_FICLONE);
  if (strip) {
    const stripped = stripNodeBinary(join(binDir, 'node'), target, log);
    if (stripped)
      log(`${target}: ${stripped.tool} saved ${((stripped.before - stripped.after) / 1048576).toFixed(1)} MiB`);
  }
  for (const path of [join(seaDir, `${base}.tar.gz`), join(seaDir, `${base}.tar.gz.ok`), join(binDir, 'node.ok')]) {
    touch(path);
  }
}

// A stale Authenticode directory would survive injection and make the .exe look tampered with.
function stripAuthenticode(exe, log) {
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

/**
 * Packs `bundlePath` into the Node binary of `target` with pkg's SEA mode, writing `outPath`.
 * pkg runs on the pinned host Node (it needs Node >= 22) with HOME pointing at a seeded cache
 * in `workDir`, so it downloads nothing. `strip`: strip the Linux Node binary first.
 */
export function packSeaBinary({ target, outPath, bundlePath, workDir, strip = false, log = () => {} }) {
  const pin = nodeBinaries.targets[target];
  const host = hostTarget();
  if (!host)
    throw new Error(
      `cannot run pkg here: no Node ${nodeBinaries.version} binary for ${process.platform}-${process.arch}`,
    );
  // pkg >= 6.14 needs Node >= 22 to run, so it runs on the pinned host binary, not on our Node.
  const runner = ensureNodeBinary(host, { log });
  const targetNode = ensureNodeBinary(target, { log });
  const pkgHome = mkdtempSync(join(workDir, '.pkg-home-'));
  try {
    seedPkgCache(pkgHome, target, targetNode, strip, log);
    mkdirSync(dirname(outPath), { recursive: true });
    // pkg writes to a temp file that then replaces outPath in one rename: tests (or anything
    // else) running the binary during a build never find it missing or half written.
    replaceFile(outPath, (tempPath) => {
      const args = [
        ensurePkg({ log }),
        '--sea',
        '-t',
        `node${nodeBinaries.version}-${pin.pkgTarget}`,
        '-o',
        tempPath,
        bundlePath,
      ];
      if (target.startsWith('darwin-')) args.push('--no-signature');
      const run = spawnSync(runner, args, {
        cwd: workDir,
        env: { ...process.env, HOME: pkgHome, USERPROFILE: pkgHome },
        encoding: 'utf8',
      });
      if (run.status !== 0 || !existsSync(tempPath)) {
        throw new Error(`pkg failed for ${target} (exit ${run.status}):\n${run.stdout}${run.stderr}`);
      }
    });
  } finally {
    rmSync(pkgHome, { recursive: true, force: true });
  }
}

/** Checks with `file` that `path` is an executable of `target` (skipped, with a warning, without `file`). */
export function checkFileType(path, target, log = () => {}) {
  const run = spawnSync('file', ['-b', path], { encoding: 'utf8' });
  if (run.error) {
    log(`warning: 'file' is not installed; ${target} binary not inspected`);
    return;
  }
  const pattern = new RegExp(nodeBinaries.targets[target].fileType);
  if (!pattern.test(run.stdout)) throw new Error(`${path} is not a ${target} executable: ${run.stdout.trim()}`);
  log(`${target}: ${run.stdout.trim().slice(0, 80)}`);
}

/** True when `command` can be started here. */
export function canRun(command) {
  return !spawnSync(command, ['--version'], { encoding: 'utf8' }).error;
}
