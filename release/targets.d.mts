/** Types of targets.mjs (for the tests). */
export declare function platformOf(target: string): { os: string; arch: string };
export declare function archiveRoot(version: string, target: string): string;
export declare function archiveName(version: string, target: string): string;
export declare function binaryName(target: string): string;
export declare function releaseBaseUrl(template: string, version: string): string;
