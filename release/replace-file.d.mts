/** Types of replace-file.mjs (for the tests). */
export declare function replaceFile(target: string, write: (tempPath: string) => void): void;
