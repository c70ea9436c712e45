// Reproducible release archives: the same inputs give the same bytes on any machine.
//
// tar.gz: entries listed explicitly in sorted order (no directory recursion), one fixed mtime,
// no owner names or ids (`portable`), then gzip without a file name or time in its header and a
// fixed OS byte, like `tar --sort=name --mtime=@T --owner=0 | gzip -n`.
// zip: entries in sorted order, one fixed time, unix modes in the external attributes.
import { chmodSync, copyFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { zipSync } from 'fflate';
import * as tar from 'tar';

// zlib's default level: on the ~120 MiB binaries, level 9 took three times as long (8.4 s
// against 2.9 s here) for an archive 0.4 % smaller.
const COMPRESSION_LEVEL = 6;

// RFC 1952: byte 9 of the gzip header names the OS; zlib writes the build machine's.
const GZIP_OS_UNIX = 3;
// Zip entries made on unix carry `mode << 16` in their external attributes (made-by OS 3).
const ZIP_OS_UNIX = 3;

/**
 * @typedef {object} ArchiveEntry
 * @property {string} path     path inside the archive, '/'-separated
 * @property {number} mode     unix mode bits (0o755, 0o644)
 * @property {string} [source] file to copy from
 * @property {Buffer} [content] bytes (when there is no source)
 */

const byPath = (a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0);

function entryBytes(entry) {
  return entry.content ?? readFileSync(entry.source);
}

/** The directories the entries live in, each once, parents first. */
function parentDirectories(entries) {
  const dirs = new Set();
  for (const entry of entries) {
    const parts = entry.path.split('/').slice(0, -1);
    for (let depth = 1; depth <= parts.length; depth += 1) dirs.add(parts.slice(0, depth).join('/'));
  }
  return [...dirs].sort();
}

/**
 * Writes a gzipped tar of `entries` to `outPath`, every entry (and its parent directories,
 * mode 0755) dated `mtime`.
 * @param {string} outPath
 * @param {ArchiveEntry[]} entries
 * @param {Date} mtime
 */
export function writeTarGz(outPath, entries, mtime) {
  const staging = mkdtempSync(join(tmpdir(), 'mcpbash-release-'));
  try {
    const sorted = [...entries].sort(byPath);
    for (const entry of sorted) {
      const dest = join(staging, ...entry.path.split('/'));
      mkdirSync(dirname(dest), { recursive: true });
      if (entry.source) copyFileSync(entry.source, dest);
      else writeFileSync(dest, entry.content);
      chmodSync(dest, entry.mode);
    }
    const dirs = parentDirectories(sorted);
    for (const dir of dirs) chmodSync(join(staging, ...dir.split('/')), 0o755);
    const tarPath = join(staging, '..', `${staging.split(/[\\/]/).pop()}.tar`);
    // Directories first, then files, each group sorted; noDirRecurse keeps readdir order out.
    const order = [...dirs, ...sorted.map((entry) => entry.path)];
    tar.c({ cwd: staging, file: tarPath, sync: true, portable: true, noDirRecurse: true, mtime }, order);
    const gz = gzipSync(readFileSync(tarPath), { level: COMPRESSION_LEVEL });
    rmSync(tarPath, { force: true });
    gz[9] = GZIP_OS_UNIX;
    writeFileSync(outPath, gz);
  } finally {
    rmSync(staging, { recursive: true, force: true });
  }
}

// The earliest time a zip entry can carry (DOS dates start in 1980).
const ZIP_EPOCH_MS = Date.UTC(1980, 0, 1);

// Zip times are local wall-clock fields; shift so the fields read as UTC wherever we build.
function zipTime(mtime) {
  const utc = new Date(Math.max(mtime.getTime(), ZIP_EPOCH_MS));
  return new Date(utc.getTime() + utc.getTimezoneOffset() * 60_000);
}

/**
 * Writes a zip of `entries` to `outPath`, every entry dated `mtime` (UTC fields; 1980 at the earliest).
 * @param {string} outPath
 * @param {ArchiveEntry[]} entries
 * @param {Date} mtime
 */
export function writeZip(outPath, entries, mtime) {
  const files = {};
  for (const entry of [...entries].sort(byPath)) {
    files[entry.path] = [
      new Uint8Array(entryBytes(entry)),
      {
        level: COMPRESSION_LEVEL,
        mtime: zipTime(mtime),
        os: ZIP_OS_UNIX,
        attrs: ((0o100000 | entry.mode) << 16) >>> 0,
      },
    ];
  }
  writeFileSync(outPath, zipSync(files));
}
