import { realpathSync } from 'node:fs';
import { join } from 'node:path';
import type { Test } from 'tap';
import { describeIssues, SchemaValidator } from '../../src/validation/json-schema.js';
import { isolatedEnv, type RunResult, runBinary } from './run-binary.js';
import { scratchDir } from './scratch.js';

/**
 * One isolated environment (private HOME) shared by the runs of a test file: the framework
 * files are extracted once instead of once per run.
 */
export function sharedCliEnv(extra: NodeJS.ProcessEnv = {}): NodeJS.ProcessEnv {
  return isolatedEnv({ NO_COLOR: '1', ...extra });
}

/** A fresh empty directory (symlinks resolved, as the CLI reports paths). */
export function tempDir(prefix = 'mcpbash-cli-'): string {
  return realpathSync(scratchDir(prefix));
}

/** `mcp-bash new <name>` in a fresh directory; returns the project root. */
export async function newProject(
  t: Test,
  env: NodeJS.ProcessEnv,
  name = 'demo',
  extraArgs: string[] = [],
): Promise<string> {
  const parent = tempDir();
  const run = await runBinary(['new', name, ...extraArgs], { env, cwd: parent });
  t.equal(run.code, 0, `mcp-bash new ${name}: ${run.stderr}`);
  return join(parent, name);
}

/** Runs the binary in `cwd` with `env`. */
export function cli(args: readonly string[], env: NodeJS.ProcessEnv, cwd?: string, input?: string): Promise<RunResult> {
  return runBinary(args, { env, ...(cwd ? { cwd } : {}), ...(input !== undefined ? { input } : {}) });
}

const validator = new SchemaValidator();

/** Asserts that `value` matches `schema` (one of src/schemas/), naming every problem. */
export function matchesSchema(t: Test, value: unknown, schema: object, what: string): void {
  const result = validator.check(schema, value);
  t.equal(
    result.valid,
    true,
    `${what} matches its schema${result.valid === false ? `: ${describeIssues(result.issues)}` : ''}`,
  );
}

/** Parses one line of JSON output, failing the test with the text when it is not JSON. */
export function parseJson(t: Test, text: string, what: string): Record<string, unknown> {
  try {
    return JSON.parse(text) as Record<string, unknown>;
  } catch {
    t.fail(`${what} is not JSON: ${text}`);
    return {};
  }
}
