/** Types of node-binary.mjs (for the tests). */
export declare const nodeBinaries: {
  version: string;
  targets: Record<string, { package: string; pkgTarget: string; executable: string; integrity: string; fileType: string }>;
};
export declare function hostTarget(): string | null;
export declare function cachedNodePath(target: string, cacheDir?: string): string;
