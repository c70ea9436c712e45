/** Types of notices.mjs (for the tests). */
export declare function packageDirsOf(paths: string[]): string[];
export declare function bundledPackageDirs(metafile: { inputs: Record<string, unknown> }): string[];
export declare function withDependencies(root: string, dirs: string[]): string[];
export declare function packageNotices(
  root: string,
  dirs: string[],
): { name: string; version: string; license: string; text: string }[];
export declare function renderNotices(options: {
  root: string;
  packageDirs: string[];
  nodeVersion: string;
  nodeLicense: string;
}): string;
