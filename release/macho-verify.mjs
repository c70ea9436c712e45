// Reads back an embedded Mach-O code signature and checks it the way the kernel and
// `codesign --verify` would for what matters here: every page hash, the hashed special slots,
// the code limit and that __LINKEDIT ends the file and holds the signature. It parses the
// bytes itself (nothing shared with macho-sign.mjs), so the signer is checked independently;
// it also accepts Apple-made signatures (Node's own), which pins the hashing conventions.
import { createHash } from 'node:crypto';

const HASH_ALGORITHMS = { 1: 'sha1', 2: 'sha256' };
// Special slots whose content lives in the signature itself (others hash external files).
const EMBEDDED_SPECIAL_SLOTS = new Set([2, 5, 7]);

function loadCommands(file) {
  if (file.readUInt32LE(0) !== 0xfeedfacf) throw new Error('not a 64-bit little-endian Mach-O');
  const commands = [];
  let offset = 32;
  for (let index = 0; index < file.readUInt32LE(16); index += 1) {
    commands.push({ cmd: file.readUInt32LE(offset), offset });
    offset += file.readUInt32LE(offset + 4);
  }
  return commands;
}

function segments(file, commands) {
  return commands
    .filter(({ cmd }) => cmd === 0x19)
    .map(({ offset }) => ({
      name: file.toString('latin1', offset + 8, offset + 24).replace(/\0.*$/s, ''),
      vmsize: Number(file.readBigUInt64LE(offset + 32)),
      fileoff: Number(file.readBigUInt64LE(offset + 40)),
      filesize: Number(file.readBigUInt64LE(offset + 48)),
    }));
}

function readBlobs(file, start) {
  if (file.readUInt32BE(start) !== 0xfade0cc0) throw new Error('the signature is not an embedded SuperBlob');
  const blobs = new Map();
  for (let index = 0; index < file.readUInt32BE(start + 8); index += 1) {
    const type = file.readUInt32BE(start + 12 + index * 8);
    const at = start + file.readUInt32BE(start + 16 + index * 8);
    blobs.set(type, file.subarray(at, at + file.readUInt32BE(at + 4)));
  }
  return blobs;
}

function readCodeDirectory(cd) {
  const version = cd.readUInt32BE(8);
  return {
    version,
    flags: cd.readUInt32BE(12),
    hashOffset: cd.readUInt32BE(16),
    identifier: cd.toString('utf8', cd.readUInt32BE(20), cd.indexOf(0, cd.readUInt32BE(20))),
    nSpecialSlots: cd.readUInt32BE(24),
    nCodeSlots: cd.readUInt32BE(28),
    codeLimit: cd.readUInt32BE(32),
    hashSize: cd[36],
    hashType: cd[37],
    pageSize: 2 ** cd[39],
    execSegBase: version >= 0x20400 ? Number(cd.readBigUInt64BE(64)) : null,
    execSegLimit: version >= 0x20400 ? Number(cd.readBigUInt64BE(72)) : null,
    execSegFlags: version >= 0x20400 ? Number(cd.readBigUInt64BE(80)) : null,
  };
}

function checkCodeDirectory(file, blobs, cdBlob, dataoff) {
  if (cdBlob.readUInt32BE(0) !== 0xfade0c02) throw new Error('slot 0 is not a CodeDirectory');
  const cd = readCodeDirectory(cdBlob);
  const algorithm = HASH_ALGORITHMS[cd.hashType];
  if (!algorithm) throw new Error(`unknown hash type ${cd.hashType}`);
  const hash = (bytes) => createHash(algorithm).update(bytes).digest();
  if (cd.codeLimit !== dataoff) throw new Error(`codeLimit ${cd.codeLimit} is not the signature offset ${dataoff}`);
  if (cd.nCodeSlots !== Math.ceil(cd.codeLimit / cd.pageSize)) throw new Error('nCodeSlots does not cover codeLimit');
  for (let slot = 0; slot < cd.nCodeSlots; slot += 1) {
    const page = file.subarray(slot * cd.pageSize, Math.min((slot + 1) * cd.pageSize, cd.codeLimit));
    const stored = cdBlob.subarray(cd.hashOffset + slot * cd.hashSize, cd.hashOffset + (slot + 1) * cd.hashSize);
    if (!hash(page).equals(stored))
      throw new Error(`page ${slot} (offset ${slot * cd.pageSize}) does not match its hash`);
  }
  for (let slot = 1; slot <= cd.nSpecialSlots; slot += 1) {
    const stored = cdBlob.subarray(cd.hashOffset - slot * cd.hashSize, cd.hashOffset - (slot - 1) * cd.hashSize);
    const blob = blobs.get(slot);
    if (blob && !hash(blob).equals(stored)) throw new Error(`special slot -${slot} does not match blob ${slot}`);
    if (!blob && EMBEDDED_SPECIAL_SLOTS.has(slot) && stored.some((byte) => byte !== 0))
      throw new Error(`special slot -${slot} names a blob the signature lacks`);
  }
  return cd;
}

/**
 * Verifies the embedded signature of a thin 64-bit Mach-O; throws naming the first problem.
 * @returns {{ dataoff: number, datasize: number, codeDirectories: object[], blobTypes: number[] }}
 */
export function verifyMachOSignature(file) {
  const commands = loadCommands(file);
  const signatureCommand = commands.find(({ cmd }) => cmd === 0x1d);
  if (!signatureCommand) throw new Error('no LC_CODE_SIGNATURE: the binary is unsigned');
  const dataoff = file.readUInt32LE(signatureCommand.offset + 8);
  const datasize = file.readUInt32LE(signatureCommand.offset + 12);
  const linkedit = segments(file, commands).at(-1);
  if (linkedit?.name !== '__LINKEDIT') throw new Error('__LINKEDIT is not the last segment');
  if (linkedit.fileoff + linkedit.filesize !== file.length)
    throw new Error('__LINKEDIT does not end at the end of the file');
  if (dataoff < linkedit.fileoff || dataoff + datasize > file.length)
    throw new Error('the signature lies outside __LINKEDIT');
  if (linkedit.vmsize < linkedit.filesize) throw new Error('__LINKEDIT vmsize is smaller than its filesize');
  const blobs = readBlobs(file, dataoff);
  const directories = [...blobs.keys()].filter((type) => type === 0 || (type >= 0x1000 && type < 0x1005));
  if (!directories.includes(0)) throw new Error('no CodeDirectory in slot 0');
  return {
    dataoff,
    datasize,
    blobTypes: [...blobs.keys()],
    codeDirectories: directories.map((type) => checkCodeDirectory(file, blobs, blobs.get(type), dataoff)),
  };
}
