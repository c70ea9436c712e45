import { lstatSync, readFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { rewriteFileAtomic } from '../../fs/atomic-write.js';
import { editTarget } from '../../fs/contained-path.js';
import { appendToArrayMember } from '../../json/json-splice.js';
import { parseRegisterJson } from '../../project/registry/register-json.js';
import { CliError } from '../cli-error.js';
import { FILE_MODE, writeNewFile } from './template-files.js';

/** Whether something (a dangling symbolic link included) is at `path`. */
const exists = (path: string) => lstatSync(path, { throwIfNoEntry: false }) !== undefined;

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

/** The file to edit in place of `path`, refusing a symbolic link that leaves the project. */
function editablePath(path: string, root: string): string {
  const target = editTarget(path, root);
  if (target.kind === 'file') return target.path;
  return refuse(
    `${relative(root, path)} cannot be edited: ` +
      `${target.kind === 'refused' ? target.reason : 'it does not exist'}; nothing was scaffolded`,
    'Replace it with a regular file inside the project, or register the completion yourself.',
  );
}

/** `text` with `entry` appended to `completions`, checked to change nothing else. */
function withCompletion(text: string, entry: CompletionEntry): string | undefined {
  const edited = appendToArrayMember(text, 'completions', entry);
  if (edited === undefined) return undefined;
  try {
    const before = JSON.parse(text) as Record<string, unknown>;
    const after = JSON.parse(edited) as Record<string, unknown>;
    const expected = { ...before, completions: [...((before.completions as unknown[] | null) ?? []), entry] };
    return JSON.stringify(after) === JSON.stringify(expected) ? edited : undefined;
  } catch {
    return undefined;
  }
}

function updateRegisterJson(
  path: string,
  root: string,
  entry: CompletionEntry,
  maxBytes: number,
): CompletionRegistration {
  const file = editablePath(path, root);
  const bytes = readFileSync(file);
  const parsed = parseRegisterJson(bytes, maxBytes);
  if (!parsed.ok) {
    refuse(
      `server.d/register.json is invalid (${parsed.reason}); nothing was scaffolded`,
      "Fix it first ('mcp-bash validate' shows the problem), then run the command again.",
    );
  }
  const completions = parsed.kinds.completions ?? [];
  if (completions.some((item) => (item as { name?: unknown } | null)?.name === entry.name)) {
    refuse(
      `server.d/register.json already registers a completion named "${entry.name}"`,
      'Choose another name, or remove that entry first.',
    );
  }
  // The user's file is edited, not rewritten: formatting, big numbers and duplicate keys stay.
  const edited = withCompletion(bytes.toString('utf8'), entry);
  if (edited === undefined) {
    refuse(
      'server.d/register.json could not be extended without rewriting it; nothing was scaffolded',
      `Add this entry to its "completions" array yourself: ${JSON.stringify(entry)}`,
    );
  }
  return {
    file: path,
    action: 'Updated',
    // A temp file beside the real file, then a rename: never half a file, and a symbolic
    // link inside the project stays a link.
    apply: () => rewriteFileAtomic(file, edited),
  };
}

function appendToRegisterSh(path: string, root: string, entry: CompletionEntry): CompletionRegistration {
  const file = editablePath(path, root);
  const quoted = JSON.stringify(entry).replace(/'/g, `'\\''`);
  return {
    file: path,
    action: 'Appended',
    apply() {
      const text = readFileSync(file, 'utf8');
      const block = [
        `${text === '' || text.endsWith('\n') ? '' : '\n'}`,
        `# Completion ${entry.name} (added by mcp-bash scaffold completion)`,
        'mcp_completion_manual_begin',
        `mcp_completion_manual_register '${quoted}'`,
        'mcp_completion_manual_finalize',
        '',
      ].join('\n');
      rewriteFileAtomic(file, `${text}${block}`);
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
  /** MCPBASH_MAX_MANUAL_REGISTRY_BYTES: the largest register.json read. */
  maxBytes: number,
  root: string = dirname(serverDir),
): CompletionRegistration {
  const json = join(serverDir, 'register.json');
  const sh = join(serverDir, 'register.sh');
  if (exists(json)) return updateRegisterJson(json, root, entry, maxBytes);
  if (exists(sh)) return appendToRegisterSh(sh, root, entry);
  return {
    file: json,
    action: 'Created',
    apply: () => writeNewFile(json, `${JSON.stringify({ version: 1, completions: [entry] }, null, 2)}\n`, FILE_MODE),
  };
}
