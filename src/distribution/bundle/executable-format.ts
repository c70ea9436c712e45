import { readFileHead } from '../../fs/file-head.js';

/** What the first bytes of a file say it is, in words and as `<os>-<arch>` when it is an executable. */
export interface ExecutableFormat {
  /** `linux-x64`, `darwin-arm64`, `darwin-universal`, `win-x64`, ... or undefined. */
  readonly target: string | undefined;
  readonly description: string;
}

const ELF_MACHINES: Readonly<Record<number, string>> = { 62: 'x64', 183: 'arm64', 3: 'x86', 40: 'arm' };
const MACHO_CPUS: Readonly<Record<number, string>> = { 16777223: 'x64', 16777228: 'arm64' };
const PE_MACHINES: Readonly<Record<number, string>> = { 34404: 'x64', 43620: 'arm64', 332: 'x86' };

function executable(os: string, arch: string | undefined, kind: string): ExecutableFormat {
  return {
    target: arch === undefined ? undefined : `${os}-${arch}`,
    description: `${kind} for ${arch ?? 'an unknown CPU'}`,
  };
}

function peFormat(head: Buffer): ExecutableFormat {
  const offset = head.length >= 0x40 ? head.readUInt32LE(0x3c) : 0;
  if (offset === 0 || offset + 6 > head.length || head.toString('latin1', offset, offset + 4) !== 'PE\0\0')
    return { target: undefined, description: 'a DOS/MZ file without a PE header' };
  return executable('win', PE_MACHINES[head.readUInt16LE(offset + 4)], 'a Windows (PE) executable');
}

/**
 * Reads the magic bytes (ELF, Mach-O, PE) of the file at `path`: enough to tell a release
 * binary of the right platform from a truncated download, a text file or another OS's binary.
 */
export function executableFormat(path: string): ExecutableFormat {
  const head = readFileHead(path, 4096);
  if (head.length === 0) return { target: undefined, description: 'an empty file' };
  if (head.length >= 20 && head.readUInt32BE(0) === 0x7f454c46)
    return executable('linux', ELF_MACHINES[head.readUInt16LE(18)], 'an ELF (Linux) executable');
  if (head.length >= 8 && head.readUInt32LE(0) === 0xfeedfacf)
    return executable('darwin', MACHO_CPUS[head.readUInt32LE(4)], 'a Mach-O (macOS) executable');
  if (head.length >= 8 && head.readUInt32BE(0) === 0xcafebabe)
    return { target: 'darwin-universal', description: 'a universal Mach-O (macOS) executable' };
  if (head.length >= 2 && head.toString('latin1', 0, 2) === 'MZ') return peFormat(head);
  const text = head.subarray(0, 512).every((byte) => byte === 9 || byte === 10 || byte === 13 || byte >= 32);
  return { target: undefined, description: text ? 'a text file' : `not an executable (${head.length} bytes)` };
}

/** Whether a file of `format` runs on `target` (a universal macOS binary runs on both CPUs). */
export function runsOn(format: ExecutableFormat, target: string): boolean {
  return format.target === target || (format.target === 'darwin-universal' && target.startsWith('darwin-'));
}
