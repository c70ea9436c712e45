/** One entry of a ZIP's central directory, as the tests inspect it. */
export interface ZipEntryInfo {
  readonly name: string;
  /** Unix mode bits (0o755), from the external attributes. */
  readonly mode: number;
  /** Host system of the entry (3 = unix). */
  readonly host: number;
  /** The DOS date and time fields, as written (local time without a zone). */
  readonly dos: { year: number; month: number; day: number; hour: number; minute: number; second: number };
  /** The UTC mtime of the extended timestamp field (0x5455), when present. */
  readonly unixTime?: number;
}

/** Reads a ZIP's central directory (written independently of the code under test). */
export function zipEntries(zip: Buffer): ZipEntryInfo[] {
  let end = -1;
  for (let at = zip.length - 22; at >= 0; at -= 1) {
    if (zip.readUInt32LE(at) === 0x06054b50) {
      end = at;
      break;
    }
  }
  if (end === -1) throw new Error('no end of central directory');
  const count = zip.readUInt16LE(end + 10);
  let at = zip.readUInt32LE(end + 16);
  const entries: ZipEntryInfo[] = [];
  for (let index = 0; index < count; index += 1) {
    if (zip.readUInt32LE(at) !== 0x02014b50) throw new Error(`bad central directory entry at ${at}`);
    const host = zip.readUInt8(at + 5);
    const time = zip.readUInt16LE(at + 12);
    const date = zip.readUInt16LE(at + 14);
    const nameLength = zip.readUInt16LE(at + 28);
    const extraLength = zip.readUInt16LE(at + 30);
    const commentLength = zip.readUInt16LE(at + 32);
    const attributes = zip.readUInt32LE(at + 38);
    const name = zip.toString('utf8', at + 46, at + 46 + nameLength);
    let unixTime: number | undefined;
    for (let extra = at + 46 + nameLength; extra < at + 46 + nameLength + extraLength; ) {
      const id = zip.readUInt16LE(extra);
      const size = zip.readUInt16LE(extra + 2);
      if (id === 0x5455 && size >= 5) unixTime = zip.readUInt32LE(extra + 5);
      extra += 4 + size;
    }
    entries.push({
      name,
      mode: (attributes >>> 16) & 0o7777,
      host,
      dos: {
        year: 1980 + (date >> 9),
        month: (date >> 5) & 15,
        day: date & 31,
        hour: time >> 11,
        minute: (time >> 5) & 63,
        second: (time & 31) * 2,
      },
      ...(unixTime === undefined ? {} : { unixTime }),
    });
    at += 46 + nameLength + extraLength + commentLength;
  }
  return entries;
}
