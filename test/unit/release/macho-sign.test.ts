import { createHash } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import t from 'tap';
import {
  adHocSign,
  CSMAGIC_BLOBWRAPPER,
  CSMAGIC_CODEDIRECTORY,
  CSMAGIC_EMBEDDED_SIGNATURE,
  CSMAGIC_REQUIREMENTS,
  LC_CODE_SIGNATURE,
  parseMachO,
} from '../../../release/macho-sign.mjs';
import { verifyMachOSignature } from '../../../release/macho-verify.mjs';
import { cachedNodePath } from '../../../release/node-binary.mjs';

const TEXT_SIZE = 0x8000;
const LINKEDIT_SIZE = 5003;

/** A small arm64 MH_EXECUTE: __PAGEZERO, __TEXT (one section), __LINKEDIT ending the file. */
function syntheticExecutable(): Buffer {
  const file = Buffer.alloc(TEXT_SIZE + LINKEDIT_SIZE);
  for (let index = 0x4000; index < file.length; index += 1) file[index] = (index * 7919) & 0xff;
  const commands: Buffer[] = [];
  const segment = (name: string, vmaddr: bigint, vmsize: bigint, fileoff: number, filesize: number, sections = 0) => {
    const cmd = Buffer.alloc(72 + sections * 80);
    cmd.writeUInt32LE(0x19, 0);
    cmd.writeUInt32LE(cmd.length, 4);
    cmd.write(name, 8, 'latin1');
    cmd.writeBigUInt64LE(vmaddr, 24);
    cmd.writeBigUInt64LE(vmsize, 32);
    cmd.writeBigUInt64LE(BigInt(fileoff), 40);
    cmd.writeBigUInt64LE(BigInt(filesize), 48);
    cmd.writeUInt32LE(sections, 64);
    if (sections > 0) {
      cmd.write('__text', 72, 'latin1');
      cmd.write('__TEXT', 88, 'latin1');
      cmd.writeBigUInt64LE(0x100n, 72 + 40);
      cmd.writeUInt32LE(0x4000, 72 + 48);
    }
    commands.push(cmd);
  };
  segment('__PAGEZERO', 0n, 0x100000000n, 0, 0);
  segment('__TEXT', 0x100000000n, BigInt(TEXT_SIZE), 0, TEXT_SIZE, 1);
  segment('__LINKEDIT', 0x100008000n, 0x4000n, TEXT_SIZE, LINKEDIT_SIZE);
  const body = Buffer.concat(commands);
  file.writeUInt32LE(0xfeedfacf, 0);
  file.writeUInt32LE(0x0100000c, 4);
  file.writeUInt32LE(2, 12);
  file.writeUInt32LE(commands.length, 16);
  file.writeUInt32LE(body.length, 20);
  body.copy(file, 32);
  return file;
}

const sha256 = (bytes: Buffer) => createHash('sha256').update(bytes).digest();

t.test('an ad-hoc signature verifies: every page hash, the requirements slot, the code limit', async (t) => {
  const unsigned = syntheticExecutable();
  const signed = adHocSign(unsigned, 'mcp-bash');
  const check = verifyMachOSignature(signed);
  t.same(check.blobTypes, [0, 2, 0x10000], 'CodeDirectory, Requirements and the CMS wrapper, as codesign -s - writes');
  const [cd] = check.codeDirectories;
  t.match(cd, {
    version: 0x20400,
    flags: 0x2,
    hashType: 2,
    hashSize: 32,
    pageSize: 4096,
    identifier: 'mcp-bash',
    nSpecialSlots: 2,
    execSegBase: 0,
    execSegLimit: TEXT_SIZE,
    execSegFlags: 1,
  });
  const codeLimit = Math.ceil(unsigned.length / 16) * 16;
  t.equal(check.dataoff, codeLimit, 'the signature starts 16-byte aligned after the unsigned file');
  t.equal(cd?.codeLimit, codeLimit);
  t.equal(cd?.nCodeSlots, Math.ceil(codeLimit / 4096));
});

t.test('the signature bytes read back independently', async (t) => {
  const signed = adHocSign(syntheticExecutable(), 'mcp-bash');
  t.equal(signed.readUInt32LE(16), 4, 'one load command more');
  const last = 32 + signed.readUInt32LE(20) - 16;
  t.equal(signed.readUInt32LE(last), LC_CODE_SIGNATURE, 'LC_CODE_SIGNATURE is the last command');
  const dataoff = signed.readUInt32LE(last + 8);
  t.equal(dataoff + signed.readUInt32LE(last + 12), signed.length, 'the signature ends the file');
  t.equal(signed.readUInt32BE(dataoff), CSMAGIC_EMBEDDED_SIGNATURE);
  const blobAt = (index: number) => dataoff + signed.readUInt32BE(dataoff + 16 + index * 8);
  const cd = blobAt(0);
  t.equal(signed.readUInt32BE(cd), CSMAGIC_CODEDIRECTORY);
  const requirements = signed.subarray(blobAt(1), blobAt(1) + 12);
  t.same(
    [requirements.readUInt32BE(0), requirements.readUInt32BE(4), requirements.readUInt32BE(8)],
    [CSMAGIC_REQUIREMENTS, 12, 0],
  );
  t.same([signed.readUInt32BE(blobAt(2)), signed.readUInt32BE(blobAt(2) + 4)], [CSMAGIC_BLOBWRAPPER, 8]);
  const hashOffset = cd + signed.readUInt32BE(cd + 16);
  t.same(
    signed.subarray(hashOffset - 64, hashOffset - 32),
    sha256(requirements),
    'special slot -2 hashes the requirements',
  );
  t.ok(
    signed.subarray(hashOffset - 32, hashOffset).every((byte) => byte === 0),
    'slot -1 (no Info.plist) is zero',
  );
  t.same(
    signed.subarray(hashOffset, hashOffset + 32),
    sha256(signed.subarray(0, 4096)),
    'page 0 includes the new header',
  );
  const slots = signed.readUInt32BE(cd + 28);
  const lastPage = signed.subarray((slots - 1) * 4096, dataoff);
  t.same(
    signed.subarray(hashOffset + (slots - 1) * 32, hashOffset + slots * 32),
    sha256(lastPage),
    'the last page stops at the signature',
  );
  const linkedit = parseMachO(signed).segments.find((segment) => segment.name === '__LINKEDIT');
  t.equal(
    linkedit?.fileoff !== undefined && linkedit.fileoff + linkedit.filesize,
    signed.length,
    '__LINKEDIT covers the signature',
  );
  t.equal((linkedit?.vmsize ?? 1) % 0x4000, 0, 'its vmsize is whole 16 KiB pages (arm64)');
  t.ok((linkedit?.vmsize ?? 0) >= (linkedit?.filesize ?? 1));
});

t.test('a changed byte breaks exactly the page that holds it', async (t) => {
  const signed = adHocSign(syntheticExecutable(), 'mcp-bash');
  const tampered = Buffer.from(signed);
  tampered[0x5001] = (tampered[0x5001] ?? 0) ^ 0xff;
  t.throws(() => verifyMachOSignature(tampered), /page 5 \(offset 20480\) does not match/);
});

t.test('signing again replaces the signature: the same bytes as signing once', async (t) => {
  const once = adHocSign(syntheticExecutable(), 'mcp-bash');
  t.ok(adHocSign(once, 'mcp-bash').equals(once));
  const renamed = adHocSign(once, 'other-name');
  t.equal(verifyMachOSignature(renamed).codeDirectories[0]?.identifier, 'other-name');
});

t.test('what cannot be signed is refused with a reason', async (t) => {
  t.throws(() => adHocSign(Buffer.from('#!/bin/sh\necho hi\n'.padEnd(64)), 'x'), /not a 64-bit little-endian Mach-O/);
  const fat = Buffer.alloc(64);
  fat.writeUInt32BE(0xcafebabe, 0);
  t.throws(() => adHocSign(fat, 'x'), /universal \(fat\)/);
  const crowded = syntheticExecutable();
  crowded.writeUInt32LE(0x20, 72 + 32 + 72 + 48); // the __text section starts right after the commands
  t.throws(() => adHocSign(crowded, 'x'), /no room after the load commands/);
  const trailing = Buffer.concat([syntheticExecutable(), Buffer.alloc(10)]);
  t.throws(() => adHocSign(trailing, 'x'), /__LINKEDIT does not end the file/);
  t.throws(() => verifyMachOSignature(syntheticExecutable()), /unsigned/);
});

// Node's darwin binaries from npm carry Apple's Developer ID signature. The verifier accepting
// it shows that its page-hash conventions (and so the signer's, which it checks) are Apple's.
for (const target of ['darwin-arm64', 'darwin-x64']) {
  const node = cachedNodePath(target);
  t.test(
    `the verifier accepts Apple's own signature of Node (${target})`,
    { skip: existsSync(node) ? false : `${target} Node is not cached (npm run release fetches it)` },
    async (t) => {
      const original = readFileSync(node);
      const check = verifyMachOSignature(original);
      t.equal(check.codeDirectories[0]?.identifier, 'node');
      t.equal(check.codeDirectories[0]?.pageSize, 4096);
      const resigned = verifyMachOSignature(adHocSign(original, 'node'));
      t.equal(resigned.codeDirectories[0]?.flags, 0x2, 'and replaces it with an ad-hoc one');
    },
  );
}
