// An ad-hoc code signature for a thin 64-bit Mach-O executable, written the way `codesign
// --force --sign -` writes one, so darwin binaries built on Linux run on Apple Silicon (the
// kernel refuses unsigned arm64 code, and injecting the SEA blob removes Node's signature).
//
// Facts relied on (Apple's public <mach-o/loader.h> and xnu's osfmk/kern/cs_blobs.h):
// - Mach-O header (64-bit, little-endian): magic 0xfeedfacf, cputype, cpusubtype, filetype
//   (2 = MH_EXECUTE), ncmds, sizeofcmds, flags, reserved: 32 bytes, then the load commands.
// - LC_SEGMENT_64 (0x19): segname[16] at +8, vmaddr +24, vmsize +32, fileoff +40, filesize +48
//   (all u64). Its section_64 records (80 bytes each, from +72) hold the file offset at +48.
// - LC_CODE_SIGNATURE (0x1d) is a linkedit_data_command: cmd, cmdsize (16), dataoff, datasize.
//   The signature is the last thing in the file, inside __LINKEDIT, the last segment.
// - Code-signing blobs are big-endian. The SuperBlob (0xfade0cc0: magic, length, count, then
//   count × {type, offset}) indexes a CodeDirectory (slot 0), Requirements (slot 2) and the CMS
//   signature wrapper (slot 0x10000; empty, 8 bytes, for an ad-hoc signature).
// - CodeDirectory (0xfade0c02), version 0x20400: magic, length, version, flags, hashOffset,
//   identOffset, nSpecialSlots, nCodeSlots, codeLimit (u32 each), hashSize, hashType, platform,
//   pageSize (log2) (u8 each), spare2, scatterOffset, teamOffset, spare3 (u32 each),
//   codeLimit64, execSegBase, execSegLimit, execSegFlags (u64 each): 88 bytes. The
//   identifier (NUL-terminated) follows; special-slot hashes sit just before hashOffset in
//   reverse order (slot -n at hashOffset - n × hashSize), code-slot hashes from hashOffset.
// - Code slot i is the SHA-256 of file bytes [i × 4096, min((i + 1) × 4096, codeLimit)),
//   codeLimit being the signature's file offset. Special slot -1 (Info.plist) is zero without
//   one; slot -2 is the SHA-256 of the Requirements blob (an empty one: 0xfade0c01, 12, 0).
// - flags CS_ADHOC = 0x2; hashType CS_HASHTYPE_SHA256 = 2; execSegFlags CS_EXECSEG_MAIN_BINARY
//   = 0x1 for a main executable; execSegBase/Limit = __TEXT's file offset and size.
// These page-hash conventions are checked against Node's own Apple-made signature in
// test/unit/release/macho-sign.test.ts.
import { createHash } from 'node:crypto';

export const MH_MAGIC_64 = 0xfeedfacf;
const MH_EXECUTE = 2;
export const LC_SEGMENT_64 = 0x19;
export const LC_CODE_SIGNATURE = 0x1d;
const CPU_TYPE_ARM64 = 0x0100000c;

export const CSMAGIC_EMBEDDED_SIGNATURE = 0xfade0cc0;
export const CSMAGIC_CODEDIRECTORY = 0xfade0c02;
export const CSMAGIC_REQUIREMENTS = 0xfade0c01;
export const CSMAGIC_BLOBWRAPPER = 0xfade0b01;
const CSSLOT_CODEDIRECTORY = 0;
const CSSLOT_REQUIREMENTS = 2;
const CSSLOT_CMS_SIGNATURE = 0x10000;
const CD_VERSION = 0x20400;
const CD_HEADER_SIZE = 88;
const CS_ADHOC = 0x2;
const CS_HASHTYPE_SHA256 = 2;
const CS_EXECSEG_MAIN_BINARY = 0x1;
export const PAGE_SIZE_LOG2 = 12;
const PAGE_SIZE = 1 << PAGE_SIZE_LOG2;
const HASH_SIZE = 32;
const SPECIAL_SLOTS = 2;

const sha256 = (bytes) => createHash('sha256').update(bytes).digest();
const alignUp = (value, alignment) => Math.ceil(value / alignment) * alignment;

/** The load commands of a thin 64-bit Mach-O executable, with the segments and the signature command. */
export function parseMachO(file) {
  if (file.length < 32 || file.readUInt32LE(0) !== MH_MAGIC_64) {
    const fat = file.length >= 4 && [0xcafebabe, 0xcafebabf].includes(file.readUInt32BE(0));
    throw new Error(fat ? 'a universal (fat) Mach-O: sign each slice instead' : 'not a 64-bit little-endian Mach-O');
  }
  if (file.readUInt32LE(12) !== MH_EXECUTE) throw new Error('not a Mach-O executable (MH_EXECUTE)');
  const ncmds = file.readUInt32LE(16);
  const sizeofcmds = file.readUInt32LE(20);
  const segments = [];
  let codeSignature = null;
  let firstSectionOffset = file.length;
  let offset = 32;
  for (let index = 0; index < ncmds; index += 1) {
    const cmd = file.readUInt32LE(offset);
    const cmdsize = file.readUInt32LE(offset + 4);
    if (cmdsize < 8 || offset + cmdsize > 32 + sizeofcmds) throw new Error(`load command ${index} is malformed`);
    if (cmd === LC_SEGMENT_64) {
      const segment = readSegment(file, offset);
      segments.push(segment);
      for (const sectionOffset of segment.sectionOffsets)
        if (sectionOffset > 0) firstSectionOffset = Math.min(firstSectionOffset, sectionOffset);
    } else if (cmd === LC_CODE_SIGNATURE) {
      codeSignature = {
        cmdOffset: offset,
        dataoff: file.readUInt32LE(offset + 8),
        datasize: file.readUInt32LE(offset + 12),
      };
    }
    offset += cmdsize;
  }
  return {
    cpuType: file.readUInt32LE(4),
    ncmds,
    sizeofcmds,
    commandsEnd: offset,
    firstSectionOffset,
    segments,
    codeSignature,
  };
}

function readSegment(file, offset) {
  const nsects = file.readUInt32LE(offset + 64);
  const sectionOffsets = [];
  for (let index = 0; index < nsects; index += 1) sectionOffsets.push(file.readUInt32LE(offset + 72 + index * 80 + 48));
  return {
    cmdOffset: offset,
    name: file.toString('latin1', offset + 8, offset + 24).replace(/\0.*$/s, ''),
    vmsize: Number(file.readBigUInt64LE(offset + 32)),
    fileoff: Number(file.readBigUInt64LE(offset + 40)),
    filesize: Number(file.readBigUInt64LE(offset + 48)),
    sectionOffsets,
  };
}

function segmentNamed(macho, name) {
  const segment = macho.segments.find((candidate) => candidate.name === name);
  if (!segment) throw new Error(`no ${name} segment`);
  return segment;
}

/** An empty Requirements blob, as `codesign -s -` writes for an ad-hoc signature. */
function emptyRequirements() {
  const blob = Buffer.alloc(12);
  blob.writeUInt32BE(CSMAGIC_REQUIREMENTS, 0);
  blob.writeUInt32BE(12, 4);
  return blob;
}

function emptyCmsWrapper() {
  const blob = Buffer.alloc(8);
  blob.writeUInt32BE(CSMAGIC_BLOBWRAPPER, 0);
  blob.writeUInt32BE(8, 4);
  return blob;
}

function codeDirectorySize(identifier, codeLimit) {
  const slots = Math.ceil(codeLimit / PAGE_SIZE);
  return CD_HEADER_SIZE + Buffer.byteLength(identifier) + 1 + (SPECIAL_SLOTS + slots) * HASH_SIZE;
}

function signatureSize(identifier, codeLimit) {
  return 12 + 3 * 8 + codeDirectorySize(identifier, codeLimit) + 12 + 8;
}

/** The CodeDirectory over `file[0, codeLimit)`. */
function codeDirectory(file, codeLimit, identifier, text, requirements) {
  const nCodeSlots = Math.ceil(codeLimit / PAGE_SIZE);
  const ident = Buffer.from(`${identifier}\0`, 'utf8');
  const hashOffset = CD_HEADER_SIZE + ident.length + SPECIAL_SLOTS * HASH_SIZE;
  const cd = Buffer.alloc(hashOffset + nCodeSlots * HASH_SIZE);
  const fields = [CSMAGIC_CODEDIRECTORY, cd.length, CD_VERSION, CS_ADHOC, hashOffset, CD_HEADER_SIZE, SPECIAL_SLOTS];
  for (const [index, value] of [...fields, nCodeSlots, codeLimit].entries()) cd.writeUInt32BE(value, index * 4);
  cd.writeUInt8(HASH_SIZE, 36);
  cd.writeUInt8(CS_HASHTYPE_SHA256, 37);
  cd.writeUInt8(PAGE_SIZE_LOG2, 39);
  // spare2, scatterOffset, teamOffset, spare3, codeLimit64 stay zero (codeLimit fits in 32 bits).
  cd.writeBigUInt64BE(BigInt(text.fileoff), 64);
  cd.writeBigUInt64BE(BigInt(text.filesize), 72);
  cd.writeBigUInt64BE(BigInt(CS_EXECSEG_MAIN_BINARY), 80);
  ident.copy(cd, CD_HEADER_SIZE);
  // Slot -1 (Info.plist) stays zero; slot -2 is the Requirements blob's hash.
  sha256(requirements).copy(cd, hashOffset - CSSLOT_REQUIREMENTS * HASH_SIZE);
  for (let slot = 0; slot < nCodeSlots; slot += 1) {
    const page = file.subarray(slot * PAGE_SIZE, Math.min((slot + 1) * PAGE_SIZE, codeLimit));
    sha256(page).copy(cd, hashOffset + slot * HASH_SIZE);
  }
  return cd;
}

function superBlob(blobs) {
  const headerSize = 12 + blobs.length * 8;
  const total = headerSize + blobs.reduce((sum, { blob }) => sum + blob.length, 0);
  const header = Buffer.alloc(headerSize);
  header.writeUInt32BE(CSMAGIC_EMBEDDED_SIGNATURE, 0);
  header.writeUInt32BE(total, 4);
  header.writeUInt32BE(blobs.length, 8);
  let offset = headerSize;
  blobs.forEach(({ type, blob }, index) => {
    header.writeUInt32BE(type, 12 + index * 8);
    header.writeUInt32BE(offset, 16 + index * 8);
    offset += blob.length;
  });
  return Buffer.concat([header, ...blobs.map(({ blob }) => blob)]);
}

/**
 * The file with room for an LC_CODE_SIGNATURE: an existing signature is cut off, or a new
 * command is added after the others (the space before the first section must allow it).
 */
function withSignatureCommand(file, macho) {
  if (macho.codeSignature) {
    return {
      file: Buffer.from(file.subarray(0, macho.codeSignature.dataoff)),
      cmdOffset: macho.codeSignature.cmdOffset,
    };
  }
  const linkedit = segmentNamed(macho, '__LINKEDIT');
  if (linkedit.fileoff + linkedit.filesize !== file.length)
    throw new Error('__LINKEDIT does not end the file: data after it would be left unsigned');
  if (macho.commandsEnd + 16 > macho.firstSectionOffset)
    throw new Error('no room after the load commands for LC_CODE_SIGNATURE');
  const copy = Buffer.from(file);
  copy.writeUInt32LE(LC_CODE_SIGNATURE, macho.commandsEnd);
  copy.writeUInt32LE(16, macho.commandsEnd + 4);
  copy.writeUInt32LE(macho.ncmds + 1, 16);
  copy.writeUInt32LE(macho.sizeofcmds + 16, 20);
  return { file: copy, cmdOffset: macho.commandsEnd };
}

/**
 * Signs a thin 64-bit Mach-O executable ad hoc; returns the signed file (a new Buffer).
 * @param {Buffer} input
 * @param {string} identifier the signing identifier (codesign uses the file name)
 */
export function adHocSign(input, identifier) {
  const prepared = withSignatureCommand(input, parseMachO(input));
  const macho = parseMachO(prepared.file);
  const linkedit = segmentNamed(macho, '__LINKEDIT');
  if (linkedit !== macho.segments.at(-1)) throw new Error('__LINKEDIT is not the last segment');
  const codeLimit = alignUp(prepared.file.length, 16);
  if (codeLimit >= 2 ** 32) throw new Error('binaries of 4 GiB and more need codeLimit64 (not supported)');
  const dataSize = alignUp(signatureSize(identifier, codeLimit), 16);
  const file = Buffer.alloc(codeLimit + dataSize);
  prepared.file.copy(file);
  file.writeUInt32LE(codeLimit, prepared.cmdOffset + 8);
  file.writeUInt32LE(dataSize, prepared.cmdOffset + 12);
  const segmentAlign = macho.cpuType === CPU_TYPE_ARM64 ? 0x4000 : 0x1000;
  const linkeditSize = file.length - linkedit.fileoff;
  file.writeBigUInt64LE(BigInt(alignUp(linkeditSize, segmentAlign)), linkedit.cmdOffset + 32);
  file.writeBigUInt64LE(BigInt(linkeditSize), linkedit.cmdOffset + 48);
  // Everything up to codeLimit is final now: hash it.
  const requirements = emptyRequirements();
  const cd = codeDirectory(file, codeLimit, identifier, segmentNamed(macho, '__TEXT'), requirements);
  const signature = superBlob([
    { type: CSSLOT_CODEDIRECTORY, blob: cd },
    { type: CSSLOT_REQUIREMENTS, blob: requirements },
    { type: CSSLOT_CMS_SIGNATURE, blob: emptyCmsWrapper() },
  ]);
  signature.copy(file, codeLimit);
  return file;
}
