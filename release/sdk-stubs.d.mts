export const toolSdkPath: string;
export function generateLoader(): string;
export function generateToolSdk(): string;
