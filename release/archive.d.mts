/** Types of archive.mjs (for the tests). */
export interface ArchiveEntry {
  path: string;
  mode: number;
  source?: string;
  content?: Buffer;
}
export declare function writeTarGz(outPath: string, entries: ArchiveEntry[], mtime: Date): void;
export declare function writeZip(outPath: string, entries: ArchiveEntry[], mtime: Date): void;
