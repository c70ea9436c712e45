/** Types of macho-sign.mjs (for the tests). */
export declare const MH_MAGIC_64: number;
export declare const LC_SEGMENT_64: number;
export declare const LC_CODE_SIGNATURE: number;
export declare const CSMAGIC_EMBEDDED_SIGNATURE: number;
export declare const CSMAGIC_CODEDIRECTORY: number;
export declare const CSMAGIC_REQUIREMENTS: number;
export declare const CSMAGIC_BLOBWRAPPER: number;
export declare const PAGE_SIZE_LOG2: number;
export interface MachOSegment {
  cmdOffset: number;
  name: string;
  vmsize: number;
  fileoff: number;
  filesize: number;
  sectionOffsets: number[];
}
export interface MachOLayout {
  cpuType: number;
  ncmds: number;
  sizeofcmds: number;
  commandsEnd: number;
  firstSectionOffset: number;
  segments: MachOSegment[];
  codeSignature: { cmdOffset: number; dataoff: number; datasize: number } | null;
}
export declare function parseMachO(file: Buffer): MachOLayout;
export declare function adHocSign(input: Buffer, identifier: string): Buffer;
