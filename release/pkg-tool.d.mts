/** Types of pkg-tool.mjs (for the tests). */
export function ensurePkg(options?: { log?: (message: string) => void }): string;
export function ensureConformance(options?: { log?: (message: string) => void }): string;
