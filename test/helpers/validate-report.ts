import type { Test } from 'tap';
import { validateReportSchema } from './cli-output-schemas.js';
import { cli, matchesSchema, parseJson } from './cli-projects.js';

/** One entry of `validate --json`'s `messages`. */
export interface ValidateMessage {
  level: string;
  section: string;
  message: string;
  file?: string;
  field?: string;
}

/** The parts of the `validate --json` report the tests read. */
export interface ValidateReport {
  errors: number;
  warnings: number;
  fixesApplied: number;
  messages: ValidateMessage[];
}

/**
 * Runs `mcp-bash validate --json ARGS` in `root` and asserts its one line is JSON that
 * matches the report's schema; resolves with the exit status and the report.
 */
export async function validateJson(
  t: Test,
  env: NodeJS.ProcessEnv,
  root: string,
  args: string[] = [],
): Promise<{ code: number | null; report: ValidateReport }> {
  const run = await cli(['validate', '--json', ...args], env, root);
  const report = parseJson(t, run.stdout, 'validate --json');
  matchesSchema(t, report, validateReportSchema, 'validate --json');
  return { code: run.code, report: report as unknown as ValidateReport };
}
