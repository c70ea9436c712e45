/**
 * The first bytes of a release binary of `target` (ELF, Mach-O or PE with the target's CPU),
 * padded: enough for the bundle's format check, far from a real binary.
 */
export function fakeExecutable(target: string): Buffer {
  const bytes = Buffer.alloc(256);
  const [os, arch] = target.split('-');
  if (os === 'linux') {
    bytes.writeUInt32BE(0x7f454c46, 0);
    bytes.writeUInt16LE(arch === 'arm64' ? 0xb7 : 0x3e, 18);
  } else if (os === 'darwin') {
    bytes.writeUInt32LE(0xfeedfacf, 0);
    bytes.writeUInt32LE(arch === 'arm64' ? 0x0100000c : 0x01000007, 4);
  } else {
    bytes.write('MZ', 0, 'latin1');
    bytes.writeUInt32LE(0x80, 0x3c);
    bytes.write('PE\0\0', 0x80, 'latin1');
    bytes.writeUInt16LE(arch === 'arm64' ? 0xaa64 : 0x8664, 0x84);
  }
  return bytes;
}
