import type { Writable } from 'node:stream';

/** The version of the shape of every JSON report (1.x's doctor --json started it at 1). */
const REPORT_SCHEMA_VERSION = 1;

/**
 * Prints a machine-readable report the one way every command does (docs/CLI.md): a single
 * line of compact JSON, `schemaVersion` first, then the command's own fields under 1.x's
 * names. Schemas of each report: test/helpers/cli-output-schemas.ts.
 */
export function writeJsonReport(stdout: Writable, report: object): void {
  stdout.write(`${JSON.stringify(versionedReport(report))}\n`);
}

/** A report as every JSON output carries it: `schemaVersion` first (also `serve --http`'s /readyz body). */
export function versionedReport<T extends object>(report: T): { schemaVersion: number } & T {
  return { schemaVersion: REPORT_SCHEMA_VERSION, ...report };
}
