/** Types of macho-verify.mjs (for the tests). */
export interface CodeDirectoryInfo {
  version: number;
  flags: number;
  hashOffset: number;
  identifier: string;
  nSpecialSlots: number;
  nCodeSlots: number;
  codeLimit: number;
  hashSize: number;
  hashType: number;
  pageSize: number;
  execSegBase: number | null;
  execSegLimit: number | null;
  execSegFlags: number | null;
}
export declare function verifyMachOSignature(file: Buffer): {
  dataoff: number;
  datasize: number;
  blobTypes: number[];
  codeDirectories: CodeDirectoryInfo[];
};
