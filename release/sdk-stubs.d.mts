export const toolSdkPath: string;
export function generateToolSdk(): string;
