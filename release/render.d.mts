/** Types of render.mjs (for the tests). */
export interface ReleaseFacts {
  version: string;
  baseUrl: string;
  homepage: string;
  targets: string[];
  sums: Map<string, string>;
}
export declare function renderInstallScript(settings: { version: string; baseUrlTemplate: string }): string;
export declare function renderFormula(release: ReleaseFacts): string;
export declare function renderScoopManifest(release: ReleaseFacts): string | null;
