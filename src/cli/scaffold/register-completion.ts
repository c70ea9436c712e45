import { appendFileSync, existsSync, readFileSync, renameSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { type Env, envInt } from '../../config/env-values.js';
import { parseRegisterJson } from '../../project/registry/register-json.js';
import { CliError } from '../cli-error.js';
import { FILE_MODE, writeNewFile } from './template-files.js';

/** One `completions` entry of register.json (1.x's shape). */
export interface CompletionEntry {
  readonly name: string;
  /** Relative to the project root. */
  readonly path: string;
  readonly timeoutSecs: number;
}

/** How a completion gets registered, decided before any file is written. */
export interface CompletionRegistration {
  /** `server.d/register.json` (created or updated) or `server.d/register.sh` (appended to). */
  readonly file: string;
  readonly action: 'Created' | 'Updated' | 'Appended';
  /** Writes the registration. */
  apply(): void;
}

function refuse(message: string, hint: string): never {
  throw new CliError(message, 1, hint);
}

function updateRegisterJson(path: string, entry: CompletionEntry, env: Env): CompletionRegistration {
  const parsed = parseRegisterJson(
    readFileSync(path),
    envInt(env, 'MCPBASH_MAX_MANUAL_REGISTRY_BYTES', 1024 * 1024, { min: 1 }),
  );
  if (!parsed.ok) {
    refuse(
      `server.d/register.json is invalid (${parsed.reason}); nothing was scaffolded`,
      "Fix it first ('mcp-bash validate' shows the problem), then run the command again.",
    );
  }
  const document = JSON.parse(readFileSync(path, 'utf8')) as Record<string, unknown>;
  const completions = Array.isArray(document.completions) ? [...(document.completions as unknown[])] : [];
  if (completions.some((item) => (item as { name?: unknown } | null)?.name === entry.name)) {
    refuse(
      `server.d/register.json already registers a completion named "${entry.name}"`,
      'Choose another name, or remove that entry first.',
    );
  }
  return {
    file: path,
    action: 'Updated',
    apply() {
      document.completions = [...completions, entry];
      // Same directory, then rename: readers never see half a file; the mode stays as it was.
      const temp = `${path}.${process.pid}.tmp`;
      writeFileSync(temp, `${JSON.stringify(document, null, 2)}\n`, { mode: statSync(path).mode & 0o777 });
      renameSync(temp, path);
    },
  };
}

function appendToRegisterSh(path: string, entry: CompletionEntry): CompletionRegistration {
  const quoted = JSON.stringify(entry).replace(/'/g, `'\\''`);
  return {
    file: path,
    action: 'Appended',
    apply() {
      const text = readFileSync(path, 'utf8');
      appendFileSync(
        path,
        [
          `${text === '' || text.endsWith('\n') ? '' : '\n'}`,
          `# Completion ${entry.name} (added by mcp-bash scaffold completion)`,
          'mcp_completion_manual_begin',
          `mcp_completion_manual_register '${quoted}'`,
          'mcp_completion_manual_finalize',
          '',
        ].join('\n'),
      );
    },
  };
}

/**
 * Plans the registration of a completion (decision D17: register.json, data only). An
 * existing register.json gets the entry appended to `completions`, and must be valid first.
 * A project that has register.sh but no register.json gets the 1.x block appended to
 * register.sh instead: creating register.json would silently switch register.sh off.
 */
export function planCompletionRegistration(
  serverDir: string,
  entry: CompletionEntry,
  env: Env,
): CompletionRegistration {
  const json = join(serverDir, 'register.json');
  const sh = join(serverDir, 'register.sh');
  if (existsSync(json)) return updateRegisterJson(json, entry, env);
  if (existsSync(sh)) return appendToRegisterSh(sh, entry);
  return {
    file: json,
    action: 'Created',
    apply: () => writeNewFile(json, `${JSON.stringify({ version: 1, completions: [entry] }, null, 2)}\n`, FILE_MODE),
  };
}
