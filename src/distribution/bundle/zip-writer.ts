import { randomBytes } from 'node:crypto';
import { closeSync, openSync, readFileSync, renameSync, rmSync, writeSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { Zip, ZipDeflate } from 'fflate';
import { DOS_EPOCH_SECONDS } from '../../config/settings/cli.js';

/** One file of an archive: its content in memory or on disk, and its unix mode. */
export interface ArchiveEntry {
  /** Relative, `/`-separated. */
  readonly path: string;
  /** 0o755 for executables, 0o644 for the rest. */
  readonly mode: number;
  readonly data?: Buffer;
  /** A file to read when `data` is not given. */
  readonly source?: string;
}

/** ZIP's DOS timestamps cover 1980-2107. */
const DOS_LAST_SECONDS = Date.UTC(2107, 11, 31, 23, 59, 58) / 1000;
const UNIX_HOST = 3;
const REGULAR_FILE = 0o100000;
/** The "extended timestamp" extra field: the mtime in UTC seconds, for unzip tools that read it. */
const EXTENDED_TIMESTAMP = 0x5455;

/**
 * The time every entry gets: SOURCE_DATE_EPOCH (reproducible-builds.org; its default is
 * 1980-01-01 00:00 UTC), within what a ZIP entry can hold; so the same files give the same
 * bytes on any machine, any day.
 */
export function archiveTime(sourceDateEpoch: number): number {
  return Math.min(Math.max(sourceDateEpoch, DOS_EPOCH_SECONDS), DOS_LAST_SECONDS);
}

/**
 * The Date whose local-time fields are the UTC fields of `seconds`: ZIP stores local time
 * without a zone, and fflate reads the local fields, so this keeps the bytes zone-independent.
 */
function dosDate(seconds: number): Date {
  const utc = new Date(seconds * 1000);
  return new Date(
    utc.getUTCFullYear(),
    utc.getUTCMonth(),
    utc.getUTCDate(),
    utc.getUTCHours(),
    utc.getUTCMinutes(),
    utc.getUTCSeconds(),
  );
}

function extendedTimestamp(seconds: number): Uint8Array {
  const field = Buffer.alloc(5);
  field.writeUInt8(1, 0);
  field.writeUInt32LE(seconds, 1);
  return field;
}

function compareBytes(a: ArchiveEntry, b: ArchiveEntry): number {
  return Buffer.compare(Buffer.from(a.path), Buffer.from(b.path));
}

/** Entries in byte order of their paths; a path given twice is a bug in the caller. */
export function sortEntries(entries: readonly ArchiveEntry[]): ArchiveEntry[] {
  const sorted = [...entries].sort(compareBytes);
  for (let index = 1; index < sorted.length; index += 1) {
    if (sorted[index]?.path === sorted[index - 1]?.path) throw new Error(`archive path ${sorted[index]?.path} twice`);
  }
  return sorted;
}

function writeEntries(fd: number, entries: readonly ArchiveEntry[], seconds: number): number {
  let written = 0;
  let failure: Error | null = null;
  const zip = new Zip((error, chunk) => {
    if (error) failure = error;
    else written += writeSync(fd, chunk);
  });
  const mtime = dosDate(seconds);
  const extra = { [EXTENDED_TIMESTAMP]: extendedTimestamp(seconds) };
  for (const entry of sortEntries(entries)) {
    const data = entry.data ?? readFileSync(entry.source as string);
    const file = new ZipDeflate(entry.path, { level: 6 });
    file.mtime = mtime;
    file.os = UNIX_HOST;
    file.attrs = ((REGULAR_FILE | entry.mode) << 16) >>> 0;
    file.extra = extra;
    zip.add(file);
    file.push(data, true);
    if (failure) throw failure;
  }
  zip.end();
  if (failure) throw failure;
  return written;
}

/**
 * Writes a ZIP of `entries` to `outPath` reproducibly: sorted paths, one fixed time, unix
 * modes kept (exec bits survive unpacking). The file appears only when complete (written
 * beside it, then renamed), and an existing one is replaced. Returns its size.
 */
export function writeZip(entries: readonly ArchiveEntry[], outPath: string, seconds: number): number {
  const temp = join(dirname(outPath), `.${basename(outPath)}.${randomBytes(4).toString('hex')}.tmp`);
  const fd = openSync(temp, 'wx', 0o644);
  try {
    let size: number;
    try {
      size = writeEntries(fd, entries, seconds);
    } finally {
      closeSync(fd);
    }
    renameSync(temp, outPath);
    return size;
  } finally {
    rmSync(temp, { force: true });
  }
}
